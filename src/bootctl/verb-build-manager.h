/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-manager: the boot manager with its menu (.entries) and loader.conf (.loader) built
 * in, so one HTTP-booted file carries everything it needs.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_build_manager_table;

int verb_build_manager(int argc, char *argv[], const void *data);
