/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * dm-verity superblocks and tree geometry (veritysetup's format, the kernel's tree walk).
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include <openssl/evp.h>

#include "error-buf.h"
#include "verity-tree.h"

/* Little-endian fields of the superblock (cryptsetup's struct verity_sb). */
#define SB_SIGNATURE "verity\0\0"
#define SB_VERSION 8
#define SB_HASH_TYPE 12
#define SB_ALGORITHM 32
#define SB_DATA_BLOCK_SIZE 64
#define SB_HASH_BLOCK_SIZE 68
#define SB_DATA_BLOCKS 72
#define SB_SALT_SIZE 80
#define SB_SALT 88

/* The block sizes veritysetup and the kernel accept. */
#define BLOCK_SIZE_MIN 512
#define BLOCK_SIZE_MAX (512 * 1024)

static uint64_t le(const uint8_t *p, unsigned n) {
        uint64_t v = 0;

        for (unsigned i = n; i > 0; i--)
                v = v << 8 | p[i - 1];
        return v;
}

static bool block_size_is_valid(uint64_t s) {
        return s >= BLOCK_SIZE_MIN && s <= BLOCK_SIZE_MAX && (s & (s - 1)) == 0;
}

static const EVP_MD *digest_by_name(const char *name) {
        /* Only what dm-verity images use; never whatever else OpenSSL happens to know by that name. */
        static const char *const known[] = { "sha1", "sha256", "sha512" };

        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
                if (strcmp(name, known[i]) == 0)
                        return EVP_get_digestbyname(name);
        return NULL;
}

int verity_superblock_parse(const uint8_t *buf, size_t size, VeritySuperblock *ret, char *error, size_t error_size) {
        VeritySuperblock sb = {};
        uint64_t version;

        assert(buf || size == 0);
        assert(ret);

        if (size < VERITY_SUPERBLOCK_SIZE || memcmp(buf, SB_SIGNATURE, 8) != 0)
                return error_setf(error, error_size, -EBADMSG, "no verity superblock (no \"verity\" signature)");
        version = le(buf + SB_VERSION, 4);
        if (version != 1)
                return error_setf(error, error_size, -EOPNOTSUPP, "verity superblock version %llu (only 1 is known)",
                                  (unsigned long long) version);
        sb.hash_type = (uint32_t) le(buf + SB_HASH_TYPE, 4);
        if (sb.hash_type > 1)
                return error_setf(error, error_size, -EOPNOTSUPP, "verity hash type %u (only 0 and 1 are known)",
                                  sb.hash_type);

        /* The name is a NUL-padded field; one without its NUL is not a name. */
        if (!memchr(buf + SB_ALGORITHM, 0, sizeof sb.algorithm))
                return error_setf(error, error_size, -EBADMSG, "verity algorithm name is not terminated");
        memcpy(sb.algorithm, buf + SB_ALGORITHM, sizeof sb.algorithm);
        if (!digest_by_name(sb.algorithm))
                return error_setf(error, error_size, -EOPNOTSUPP, "verity algorithm '%.31s' is not sha1, sha256 or sha512",
                                  sb.algorithm);

        sb.data_block_size = (uint32_t) le(buf + SB_DATA_BLOCK_SIZE, 4);
        sb.hash_block_size = (uint32_t) le(buf + SB_HASH_BLOCK_SIZE, 4);
        if (!block_size_is_valid(sb.data_block_size) || !block_size_is_valid(sb.hash_block_size))
                return error_setf(error, error_size, -EBADMSG,
                                  "verity block sizes %u/%u are not powers of two from 512 bytes to 512 KiB",
                                  sb.data_block_size, sb.hash_block_size);
        sb.data_blocks = le(buf + SB_DATA_BLOCKS, 8);
        if (sb.data_blocks == 0 || sb.data_blocks > UINT64_MAX / sb.data_block_size)
                return error_setf(error, error_size, -EBADMSG, "verity superblock covers %llu data blocks",
                                  (unsigned long long) sb.data_blocks);
        sb.salt_size = (uint16_t) le(buf + SB_SALT_SIZE, 2);
        if (sb.salt_size > VERITY_SALT_MAX)
                return error_setf(error, error_size, -EBADMSG, "verity salt of %u bytes (at most %u)", sb.salt_size,
                                  VERITY_SALT_MAX);
        memcpy(sb.salt, buf + SB_SALT, sb.salt_size);

        *ret = sb;
        return 0;
}

int verity_geometry(const VeritySuperblock *sb, VerityGeometry *ret) {
        const EVP_MD *md = digest_by_name(sb->algorithm);
        unsigned bits = 0, levels = 0;
        uint64_t start, blocks = 0;
        int digest_size;

        assert(sb);
        assert(ret);

        if (!md)
                return -EOPNOTSUPP;
        digest_size = EVP_MD_get_size(md);
        if (digest_size <= 0 || digest_size > VERITY_DIGEST_MAX || (uint32_t) digest_size > sb->hash_block_size)
                return -EOPNOTSUPP;

        /* As the kernel: a hash block holds 2^bits digests, each slot padded to a power of two. */
        while ((2u << bits) * (unsigned) digest_size <= sb->hash_block_size)
                bits++;
        while (bits * levels < 64 && (sb->data_blocks - 1) >> (bits * levels))
                levels++;

        /* The tree follows the superblock, top level first; each level has ceil(blocks / 2^(bits*(i+1))). */
        start = (VERITY_SUPERBLOCK_SIZE + sb->hash_block_size - 1) / sb->hash_block_size;
        for (unsigned i = 0; i < levels; i++) {
                unsigned shift = bits * (i + 1);
                uint64_t n = shift >= 64 ? 1 : ((sb->data_blocks - 1) >> shift) + 1;

                if (blocks > UINT64_MAX - n)
                        return -EBADMSG;
                blocks += n;
        }
        if (blocks > UINT64_MAX / sb->hash_block_size - start)
                return -EBADMSG;

        *ret = (VerityGeometry) {
                .digest_size = (unsigned) digest_size,
                .levels = levels,
                .top_offset = start * sb->hash_block_size,
                .hash_size = (start + blocks) * sb->hash_block_size,
                .data_size = sb->data_blocks * sb->data_block_size,
        };
        return 0;
}

int verity_root_hash(const VeritySuperblock *sb, const uint8_t *block, size_t block_size, uint8_t *ret,
                     unsigned *ret_size) {
        const EVP_MD *md = digest_by_name(sb->algorithm);
        EVP_MD_CTX *ctx;
        bool ok;

        assert(sb);
        assert(block);
        assert(ret);

        if (!md)
                return -EOPNOTSUPP;
        ctx = EVP_MD_CTX_new();
        if (!ctx)
                return -ENOMEM;
        /* Type 1 hashes the salt first, the Chrome OS type 0 last. */
        ok = EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
             (sb->hash_type != 1 || EVP_DigestUpdate(ctx, sb->salt, sb->salt_size) == 1) &&
             EVP_DigestUpdate(ctx, block, block_size) == 1 &&
             (sb->hash_type != 0 || EVP_DigestUpdate(ctx, sb->salt, sb->salt_size) == 1) &&
             EVP_DigestFinal_ex(ctx, ret, ret_size) == 1;
        EVP_MD_CTX_free(ctx);
        return ok ? 0 : -EIO;
}

void verity_hex(const uint8_t *b, size_t n, char *ret) {
        static const char digits[] = "0123456789abcdef";

        assert(b || n == 0);
        assert(ret);

        for (size_t i = 0; i < n; i++) {
                ret[2 * i] = digits[b[i] >> 4];
                ret[2 * i + 1] = digits[b[i] & 15];
        }
        ret[2 * n] = 0;
}
