/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: a verity superblock from a server (the first 512 bytes) and the block read as the tree's
 * top (the rest). Oracle: what parses is exactly what the bytes say and within the kernel's limits; the
 * tree's size equals an independent 128-bit computation; the root hash equals a one-shot digest. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "verity-tree.h"

static uint64_t le(const uint8_t *p, unsigned n) {
        uint64_t v = 0;

        for (unsigned i = n; i > 0; i--)
                v = v << 8 | p[i - 1];
        return v;
}

static int power_of_two_block(uint32_t s) {
        return s >= 512 && s <= 512 * 1024 && (s & (s - 1)) == 0;
}

static void check_fields(const uint8_t *data, const VeritySuperblock *sb) {
        if (memcmp(data, "verity\0\0", 8) != 0 || le(data + 8, 4) != 1 || le(data + 12, 4) != sb->hash_type ||
            sb->hash_type > 1 || strncmp((const char *) data + 32, sb->algorithm, 32) != 0 ||
            le(data + 64, 4) != sb->data_block_size || le(data + 68, 4) != sb->hash_block_size ||
            le(data + 72, 8) != sb->data_blocks || le(data + 80, 2) != sb->salt_size || sb->salt_size > 256 ||
            memcmp(data + 88, sb->salt, sb->salt_size) != 0)
                abort();
        if (!power_of_two_block(sb->data_block_size) || !power_of_two_block(sb->hash_block_size))
                abort();
        if (strcmp(sb->algorithm, "sha1") && strcmp(sb->algorithm, "sha256") && strcmp(sb->algorithm, "sha512"))
                abort();
}

static void check_geometry(const VeritySuperblock *sb, const VerityGeometry *g) {
        unsigned __int128 blocks = 0, bits = 0;

        while (((unsigned __int128) 2 << bits) * g->digest_size <= sb->hash_block_size)
                bits++;
        if ((1u << bits) * g->digest_size > sb->hash_block_size || g->levels > 64)
                abort();
        /* Each level: ceil(data_blocks / 2^(bits*(i+1))), computed wide. */
        for (unsigned i = 0; i < g->levels; i++) {
                unsigned __int128 per = (unsigned __int128) 1 << (bits * (i + 1) > 120 ? 120 : bits * (i + 1));
                blocks += ((unsigned __int128) sb->data_blocks + per - 1) / per;
        }
        if (g->levels > 0 && ((unsigned __int128) sb->data_blocks - 1) >> (bits * (g->levels - 1)) == 0)
                abort(); /* one level too many */
        if (g->levels < 64 && bits * g->levels < 64 && ((unsigned __int128) sb->data_blocks - 1) >> (bits * g->levels))
                abort(); /* one level too few */
        if (g->top_offset % sb->hash_block_size || g->top_offset < 512 ||
            (unsigned __int128) g->hash_size != g->top_offset + blocks * sb->hash_block_size ||
            (unsigned __int128) g->data_size != (unsigned __int128) sb->data_blocks * sb->data_block_size)
                abort();
}

static void check_root_hash(const VeritySuperblock *sb, const uint8_t *block, size_t size) {
        uint8_t a[VERITY_DIGEST_MAX], b[VERITY_DIGEST_MAX], *buf;
        unsigned na, nb;

        if (verity_root_hash(sb, block, size, a, &na) < 0)
                abort();
        buf = malloc(size + sb->salt_size + 1);
        if (!buf)
                return;
        if (sb->hash_type == 1) {
                memcpy(buf, sb->salt, sb->salt_size);
                memcpy(buf + sb->salt_size, block, size);
        } else {
                memcpy(buf, block, size);
                memcpy(buf + size, sb->salt, sb->salt_size);
        }
        if (EVP_Digest(buf, size + sb->salt_size, b, &nb, EVP_get_digestbyname(sb->algorithm), NULL) != 1 || na != nb ||
            memcmp(a, b, na) != 0)
                abort();
        free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        VeritySuperblock sb;
        VerityGeometry g;
        char error[256] = "";

        if (verity_superblock_parse(data, size, &sb, error, sizeof error) < 0) {
                if (!error[0]) /* every refusal says why */
                        abort();
                return 0;
        }
        check_fields(data, &sb);
        if (verity_geometry(&sb, &g) < 0)
                return 0;
        check_geometry(&sb, &g);
        check_root_hash(&sb, data + VERITY_SUPERBLOCK_SIZE, size - VERITY_SUPERBLOCK_SIZE);
        return 0;
}
