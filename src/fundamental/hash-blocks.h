/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What SHA-1 and SHA-256 share (FIPS 180-4, 5.1.1 and 5.2.1): the input cut into 64-byte blocks for a
 * compression function, and the last block padded with 0x80, zeros and the length in bits, big-endian.
 */
#pragma once

#include "macro-fundamental.h"

typedef struct HashBlocks {
        uint64_t length;                /* bytes hashed so far */
        uint8_t block[64];
        size_t filled;                  /* bytes waiting in block */
} HashBlocks;

/** A hash's compression function: state takes in one block. */
typedef void (*hash_compress_fn)(uint32_t *state, const uint8_t block[static 64]);

void hash_blocks_update(HashBlocks *h, uint32_t *state, hash_compress_fn compress, const void *data, size_t size);

/** The padding, after which state holds the digest; state's words out big-endian (n_words of them). */
void hash_blocks_finish(HashBlocks *h, uint32_t *state, hash_compress_fn compress, uint8_t *ret, size_t n_words);
