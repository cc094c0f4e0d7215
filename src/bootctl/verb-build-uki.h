/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-uki: a UKI from a stub, a kernel, initrds, a command line and os-release.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_build_uki_table;

int verb_build_uki(int argc, char *argv[], const void *data);
