/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The error channel besides the return value.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

#include "error-buf.h"

int error_setf(char *error, size_t error_size, int r, const char *fmt, ...) {
        va_list ap;

        assert(r < 0);
        assert(fmt);
        if (!error || error_size == 0)
                return r;
        va_start(ap, fmt);
        vsnprintf(error, error_size, fmt, ap);
        va_end(ap);
        return r;
}
