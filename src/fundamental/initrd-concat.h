/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The initrd the stub hands the kernel, put together from its pieces as systemd-stub does: early
 * microcode (.ucode, a cpio archive as it is) first, then the UKI's .initrd, then the archives made from
 * the ESP's credentials and extensions; each piece starts at a multiple of 4 bytes, as the kernel's
 * unpacker wants (zeros in between).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct InitrdPiece {
        const void *data;
        size_t size;            /* 0: not there */
} InitrdPiece;

/**
 * Concatenate the pieces in the order given.
 * @ret ret  the whole (allocated with fmalloc), or, when only one piece is not empty, that piece itself
 *           (*ret_allocated false: nothing to free); NULL with size 0 when all are empty
 * @ret      0, -ENOMEM, -EOVERFLOW
 */
int initrd_concat(const InitrdPiece *pieces, size_t n, void **ret, size_t *ret_size, bool *ret_allocated);
