/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Small macros shared by the boot loader and userspace.
 *
 * Nothing here may depend on libc: this directory builds for freestanding UEFI too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CMP(a, b) (((a) > (b)) - ((a) < (b)))
/* A macro argument as a string literal, after its own expansion. */
#define STRINGIFY(x) STRINGIFY_(x)
#define STRINGIFY_(x) #x

/* Round up to a multiple of align, which must be a power of two. */
#define ALIGN_TO(x, align) (((x) + ((align) - 1)) & ~((__typeof__(x)) (align) - 1))

#define _unused_ __attribute__((unused))
#define _cleanup_(f) __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _pure_ __attribute__((pure))
#define _warn_unused_result_ __attribute__((warn_unused_result))

/* Hand a pointer over to someone else: the cleanup handler then sees nothing to release. */
#define TAKE_PTR(p)                             \
        ({                                      \
                __typeof__(p) _p = (p);         \
                (p) = NULL;                     \
                _p;                             \
        })
