/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Memory allocation for code that runs in both worlds.
 *
 * Each world supplies these two functions: userspace maps them to malloc()/free()
 * (src/shared/fundamental-glue.c), the UEFI programs to the boot services pool (src/boot/efi-memory.c).
 * With _cleanup_ffree_ a function has one exit path for its buffers, in both worlds:
 *
 *     _cleanup_ffree_ char *text = NULL;
 *     ...
 *     *ret = TAKE_PTR(text);   // handed over: not freed on return
 */
#pragma once

#include <stddef.h>

#include "macro-fundamental.h"

/** Allocate size bytes; NULL when out of memory. */
void *fmalloc(size_t size);

/** Release memory from fmalloc(); NULL is fine. */
void ffree(void *p);

/** ffree() for a pointer to a pointer: the cleanup handler of _cleanup_ffree_. */
static inline void ffreep(void *p) {
        ffree(*(void **) p);
}

#define _cleanup_ffree_ _cleanup_(ffreep)
