/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The zero blocks of a verity-protected partition, from its checked hash tree.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error-buf.h"
#include "macro.h"
#include "verity-map.h"

void verity_zero_map_done(VerityZeroMap *m) {
        assert(m);

        m->zero = mfree(m->zero);
}

/* The tree's shape: per level (0 = leaves, whose entries are the data blocks' digests) where it starts and
 * how many blocks it has; veritysetup writes the top level first, right after the superblock's block. */
typedef struct Levels {
        unsigned n, bits;               /* levels; each hash block holds 2^bits entries */
        size_t slot;                    /* bytes per entry (the digest, padded to a power of two) */
        uint64_t offset[64], blocks[64];
} Levels;

static void levels_compute(const VeritySuperblock *sb, const VerityGeometry *g, Levels *ret) {
        uint64_t at = g->top_offset;

        *ret = (Levels) { .n = g->levels };
        while ((2u << ret->bits) * g->digest_size <= sb->hash_block_size)
                ret->bits++;
        ret->slot = sb->hash_block_size >> ret->bits;
        for (unsigned i = g->levels; i > 0; i--) {
                unsigned shift = ret->bits * i;

                ret->blocks[i - 1] = shift >= 64 ? 1 : ((sb->data_blocks - 1) >> shift) + 1;
                ret->offset[i - 1] = at;
                at += ret->blocks[i - 1] * sb->hash_block_size;
        }
}

/* Every block of each level below the top against its entry in the level above. */
static int check_levels(const VeritySuperblock *sb, const Levels *lv, const uint8_t *hash, char *error,
                        size_t error_size) {
        uint8_t digest[VERITY_DIGEST_MAX];
        unsigned digest_size;

        for (unsigned i = lv->n - 1; i > 0; i--)
                for (uint64_t b = 0; b < lv->blocks[i - 1]; b++) {
                        const uint8_t *block = hash + lv->offset[i - 1] + b * sb->hash_block_size;
                        const uint8_t *entry = hash + lv->offset[i] + (b >> lv->bits) * sb->hash_block_size +
                                               (b & ((1u << lv->bits) - 1)) * lv->slot;

                        if (verity_root_hash(sb, block, sb->hash_block_size, digest, &digest_size) < 0)
                                return error_setf(error, error_size, -EOPNOTSUPP, "cannot hash the verity tree");
                        if (memcmp(digest, entry, digest_size) != 0)
                                return error_setf(error, error_size, -EBADMSG,
                                                  "block %llu of level %u of the verity tree does not match its digest",
                                                  (unsigned long long) b, i - 1);
                }
        return 0;
}

int verity_zero_map_make(const VeritySuperblock *sb, const VerityGeometry *g, const uint8_t *hash, size_t hash_size,
                         const uint8_t *root_hash, size_t root_hash_size, VerityZeroMap *ret, char *error,
                         size_t error_size) {
        _cleanup_free_ uint8_t *zeros = NULL, *map = NULL;
        uint8_t top[VERITY_DIGEST_MAX], zero_digest[VERITY_DIGEST_MAX];
        unsigned digest_size;
        uint64_t zero_count = 0;
        Levels lv;
        int r;

        assert(sb);
        assert(g);
        assert(hash);
        assert(root_hash);
        assert(ret);

        if (g->levels == 0 || g->levels > 8 || hash_size < g->hash_size || root_hash_size != g->digest_size)
                return error_setf(error, error_size, -EOPNOTSUPP, "a verity tree of %u levels over %zu bytes",
                                  g->levels, hash_size);
        levels_compute(sb, g, &lv);
        if (verity_root_hash(sb, hash + g->top_offset, sb->hash_block_size, top, &digest_size) < 0)
                return error_setf(error, error_size, -EOPNOTSUPP, "cannot hash the verity tree");
        if (memcmp(top, root_hash, digest_size) != 0)
                return error_setf(error, error_size, -EBADMSG, "the verity tree's top block is not the pinned root hash");
        r = check_levels(sb, &lv, hash, error, error_size);
        if (r < 0)
                return r;

        zeros = calloc(1, sb->data_block_size);
        map = calloc((sb->data_blocks + 7) / 8, 1);
        if (!zeros || !map)
                return -ENOMEM;
        if (verity_root_hash(sb, zeros, sb->data_block_size, zero_digest, &digest_size) < 0)
                return error_setf(error, error_size, -EOPNOTSUPP, "cannot hash a zero block");
        for (uint64_t b = 0; b < sb->data_blocks; b++) {
                const uint8_t *entry = hash + lv.offset[0] + (b >> lv.bits) * sb->hash_block_size +
                                       (b & ((1u << lv.bits) - 1)) * lv.slot;

                if (memcmp(entry, zero_digest, digest_size) == 0) {
                        map[b / 8] |= (uint8_t) (1u << (b % 8));
                        zero_count++;
                }
        }
        *ret = (VerityZeroMap) { .data_blocks = sb->data_blocks, .block_size = sb->data_block_size,
                                 .zero_blocks = zero_count, .zero = TAKE_PTR(map) };
        return 0;
}
