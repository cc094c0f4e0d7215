/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl random-seed: the sources the boot manager and the stub mix the kernel's random seed from.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_random_seed_table;

int verb_random_seed(int argc, char *argv[], const void *data);
