/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: a seekable .zst read in place (src/lazy/zstd-image.c: what the lazy boot's nbdkit plugin makes
 * of a server's file). Oracles: the seek table's entries read again here, byte by byte, must be what the
 * reader located; and libzstd's whole-file decoder, which decodes every frame in turn and skips the table's
 * skippable frame: when the table opens and every frame decodes in place, it must accept the file too and give
 * the same image, byte for byte. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fuzz.h"
#include "zstd-image.h"

#define OUT_MAX (1U << 20)

static uint8_t mine[OUT_MAX], theirs[OUT_MAX];

static uint32_t le32(const uint8_t *p) {
        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

/* Frame i as the table's bytes say it: its sizes, where it starts in the file and in the image. */
static void entry(const uint8_t *table, uint32_t i, uint64_t *file_offset, uint64_t *offset, ImageBlock *ret) {
        size_t step = table[le32(table + 4) + ZSTD_IMAGE_TABLE_HEADER_SIZE - 5] & ZSTD_IMAGE_CHECKSUM_FLAG ? 12 : 8;
        const uint8_t *e = table + ZSTD_IMAGE_TABLE_HEADER_SIZE + i * step;

        *ret = (ImageBlock) { .offset = *offset, .size = le32(e + 4), .file_offset = *file_offset, .total = le32(e) };
        *file_offset += ret->total;
        *offset += ret->size;
}

/* The image by zstd-image: 1 when every frame decoded into out (its size in *size), 0 when something refused. */
static int decode_in_place(const uint8_t *data, size_t size, uint8_t *out, size_t *out_size) {
        uint64_t table_size, file_offset = 0, offset = 0;
        char error[256];
        ZstdImage z;
        int ok = 1;

        if (size < ZSTD_IMAGE_FOOTER_SIZE ||
            zstd_image_table_size(data + size - ZSTD_IMAGE_FOOTER_SIZE, size, &table_size, error, sizeof error) < 0 ||
            zstd_image_open(&z, data + size - table_size, table_size, size, error, sizeof error) < 0)
                return 0;
        for (uint32_t i = 0; i < z.frames; i++) {
                ImageBlock want, got;

                entry(data + size - table_size, i, &file_offset, &offset, &want);
                if (zstd_image_locate(&z, want.offset, &got) < 0 || memcmp(&got, &want, offsetof(ImageBlock, unpadded)) ||
                    zstd_image_locate(&z, want.offset + want.size - 1, &got) < 0 || got.offset != want.offset)
                        abort();        /* the table was accepted: each frame must be found where it says */
        }
        if (file_offset != size - table_size || offset != z.size || zstd_image_locate(&z, z.size, &(ImageBlock) {}) != -ERANGE)
                abort();
        if (z.size > OUT_MAX) {
                zstd_image_done(&z);
                return -1;      /* too large to compare here */
        }
        for (uint64_t o = 0; ok && o < z.size;) {
                ImageBlock b;

                if (zstd_image_locate(&z, o, &b) < 0)
                        abort();
                ok = zstd_image_decode(&b, data + b.file_offset, out + o, error, sizeof error) == 0;
                o += b.size;
        }
        *out_size = z.size;
        zstd_image_done(&z);
        return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        size_t mine_size = 0, n;
        int r;

        r = decode_in_place(data, size, mine, &mine_size);
        if (r == 1) {
                n = ZSTD_decompress(theirs, OUT_MAX, data, size);
                if (ZSTD_isError(n) || n != mine_size || memcmp(mine, theirs, mine_size) != 0)
                        abort();
        }
        return 0;
}
