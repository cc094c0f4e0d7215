/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * dm-verity hash trees as veritysetup writes them: the superblock, where the tree's top block is,
 * and the root hash computed from it.
 *
 * The kernel checks every block against the root hash it was given, so a wrong hash or a tampered
 * tree can never hand out unverified data. But it says so only as I/O errors on whatever reads
 * first. Hashing the one top block up front turns that into one clear message naming both hashes,
 * before anything is mounted. The superblock comes from the server: it is parsed defensively.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VERITY_SUPERBLOCK_SIZE 512
#define VERITY_SALT_MAX 256
#define VERITY_DIGEST_MAX 64

typedef struct VeritySuperblock {
        uint32_t hash_type;             /* 1: salt before the data (what systemd uses), 0: Chrome OS, after */
        char algorithm[32];             /* "sha256", ... (NUL-terminated) */
        uint32_t data_block_size;
        uint32_t hash_block_size;
        uint64_t data_blocks;
        uint16_t salt_size;
        uint8_t salt[VERITY_SALT_MAX];
} VeritySuperblock;

/**
 * Parse the 512-byte superblock at the start of a hash device.
 * @v error  on failure, what is wrong with it
 * @ret 0, -EBADMSG (not a verity superblock, or one with impossible values), -EOPNOTSUPP (a version,
 *      hash type or algorithm we do not know)
 */
int verity_superblock_parse(const uint8_t *buf, size_t size, VeritySuperblock *ret, char *error, size_t error_size);

typedef struct VerityGeometry {
        unsigned digest_size;
        unsigned levels;                /* 0: a single data block, hashed directly */
        uint64_t top_offset;            /* byte offset of the top hash block in the hash device */
        uint64_t hash_size;             /* bytes of the hash device the superblock and tree take */
        uint64_t data_size;             /* bytes of data the tree covers */
} VerityGeometry;

/**
 * Where the tree is, for a superblock at the start of the hash device (veritysetup's default).
 * @ret 0, -EOPNOTSUPP (unknown algorithm), -EBADMSG (a tree that would not fit in 64 bits)
 */
int verity_geometry(const VeritySuperblock *sb, VerityGeometry *ret);

/**
 * The root hash: the digest of the salt and the top block (hash_block_size bytes), or with
 * levels == 0, of the salt and the only data block (data_block_size bytes).
 * @v ret  digest_size bytes
 * @ret 0, -EOPNOTSUPP, -EIO (the digest library failed)
 */
int verity_root_hash(const VeritySuperblock *sb, const uint8_t *block, size_t block_size, uint8_t *ret,
                     unsigned *ret_size);

/** Lowercase hex of n bytes into ret (2n + 1 bytes). */
void verity_hex(const uint8_t *b, size_t n, char *ret);
