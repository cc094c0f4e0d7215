/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Running another program (no shell) and taking what it prints on stdout.
 */
#pragma once

#include <stddef.h>

/**
 * Runs argv[0] (looked up in PATH when it has no slash) with argv, stdin /dev/null, stderr as ours
 * (or /dev/null when @quiet), and reads its stdout, up to @max bytes.
 * @ret 0 with *ret NUL-terminated; -E2BIG (more than @max), -ECHILD (it failed: *ret_status has
 *      its exit status, or 128 + the signal), -ENOENT (not found), errno
 */
int command_output(char *const argv[], size_t max, int quiet, char **ret, size_t *ret_size, int *ret_status);
