/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Which data blocks of a verity-protected partition hold only zeros, read from its hash tree: the leaf
 * digest of such a block is the digest of the salt and a zero block. The background copy leaves those as
 * holes (nothing fetched, no memory spent), which is what the image's allocation map would say, but
 * authenticated: the whole tree is checked level by level against the pinned root hash first, so a server
 * cannot make a block with data pass for a zero one.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verity-tree.h"

typedef struct VerityZeroMap {
        uint64_t data_blocks;
        uint32_t block_size;            /* data block size, bytes */
        uint64_t zero_blocks;           /* how many are zero */
        uint8_t *zero;                  /* one bit per data block, set for a zero block */
} VerityZeroMap;

void verity_zero_map_done(VerityZeroMap *m);

/**
 * Check the tree and map the zero blocks.
 * @v hash       the hash device from its start: the superblock and the whole tree (geometry->hash_size bytes)
 * @v root_hash  the pin, digest_size bytes
 * @v error      on failure, which block does not match
 * @ret 0, -EBADMSG (a block of the tree or the root does not match), -EOPNOTSUPP, -ENOMEM
 */
int verity_zero_map_make(const VeritySuperblock *sb, const VerityGeometry *geometry, const uint8_t *hash, size_t hash_size,
                         const uint8_t *root_hash, size_t root_hash_size, VerityZeroMap *ret, char *error,
                         size_t error_size);

static inline bool verity_zero_map_is_zero(const VerityZeroMap *m, uint64_t block) {
        return block < m->data_blocks && (m->zero[block / 8] >> (block % 8)) & 1;
}
