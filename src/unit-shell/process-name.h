/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Naming a forked child ("(unit-shell-ns)"), so ps shows what each process of a fork chain is.
 */
#pragma once

/** Remember where the kernel keeps our command line (argv as main() got it). */
void process_name_init(char **argv);

/**
 * Rename the calling process: its comm (ps -o comm, at most 15 bytes) and, when
 * process_name_init() was called, its command line (ps -o args), truncated to the space argv had.
 * The strings argv pointed to are overwritten: copy what is still needed first.
 */
void process_name_set(const char *name);
