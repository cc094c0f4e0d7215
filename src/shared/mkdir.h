/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Creating directories with their parents.
 */
#pragma once

#include <sys/types.h>

/** mkdir -p: create path and missing parents with mode; existing directories are fine. */
int mkdir_p(const char *path, mode_t mode);

/** Create the missing parents of path (not path itself). */
int mkdir_parents(const char *path, mode_t mode);
