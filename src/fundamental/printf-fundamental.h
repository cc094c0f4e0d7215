/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * printf-style formatting without libc, for the UEFI programs' messages.
 *
 * The conversions are C's, so the compiler checks the arguments (format attribute) and the host
 * tests compare the output with libc's snprintf(): flags '-' and '0', a width and a precision
 * (digits or '*'), the length modifiers hh h l ll z j t, and the conversions d i u x X c s p %.
 * %s takes UTF-8 (or any bytes); a NULL string prints "(null)". Other conversions are printed as
 * they stand, so a mistake shows in the message instead of reading a wrong argument.
 */
#pragma once

#include <stdarg.h>

#include "macro-fundamental.h"

/**
 * Format into buf (size bytes), always NUL-terminated when size > 0.
 * @ret the length of the whole text; when it is size or more, the text was cut
 */
size_t fvsnprintf(char *buf, size_t size, const char *fmt, va_list ap) _printf_(3, 0);
size_t fsnprintf(char *buf, size_t size, const char *fmt, ...) _printf_(3, 4);

/** Format into a new buffer (ffree()); NULL when out of memory. */
char *fasprintf(const char *fmt, ...) _printf_(1, 2);
