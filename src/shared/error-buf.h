/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The one error channel besides the return value (docs/ARCHITECTURE.md, "Errors").
 *
 * A function that can fail returns a negative errno. When the errno alone cannot tell the user what
 * happened (which entry of an archive, which header of which answer), it also fills a buffer its
 * caller owns with one line saying so, and returns the errno. It never logs that line: the caller,
 * at the edge (a main() or a verb), logs once.
 */
#pragma once

#include <stddef.h>

#include "macro.h"

/** The smallest buffer a caller passes. */
#define ERROR_BUF_MIN 256

/**
 * Write the reason into error (error_size bytes, may be 0 to discard it).
 * @ret r, so that a failure path is "return error_setf(error, size, -EBADMSG, ...);"
 */
int error_setf(char *error, size_t error_size, int r, const char *fmt, ...) _printf_(4, 5);
