/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Memory allocation for code that runs in both worlds.
 *
 * Each world supplies these two functions: userspace maps them to malloc()/free()
 * (src/shared/fundamental-glue.c), the UEFI programs to the boot services pool.
 */
#pragma once

#include <stddef.h>

/** Allocate size bytes; NULL when out of memory. */
void *fmalloc(size_t size);

/** Release memory from fmalloc(); NULL is fine. */
void ffree(void *p);
