/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * assert() for code that runs in both worlds: only for programming errors (a NULL where the
 * contract forbids one, an impossible state), never for input, which is checked and returned as an
 * error (docs/ARCHITECTURE.md, "Errors").
 *
 * Userspace gets libc's assert(): a message naming the expression, then abort(). The UEFI programs
 * have no libc to print with and trap instead, which the firmware reports as an exception at that
 * address, and which stops before a wrong pointer does worse.
 */
#pragma once

#if defined(URLBOOT_FREESTANDING)
#  define fassert(expr)                         \
        do {                                    \
                if (!(expr))                    \
                        __builtin_trap();       \
        } while (0)
#else
#  include <assert.h>
#  define fassert(expr) assert(expr)
#endif
