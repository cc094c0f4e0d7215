/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: a multi-block .xz read in place (src/lazy/xz-image.c: what the lazy boot's nbdkit plugin makes
 * of a server's file). Oracle: liblzma's whole-stream decoder on the same bytes. When the index opens and
 * every block decodes, the stream decoder must accept the file too and give the same image, byte for byte;
 * when the stream decoder accepts a file of one stream with blocks of at most 64 MiB, every block must decode
 * here as well. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xz-image.h"

#define OUT_MAX (1U << 20)

static uint8_t mine[OUT_MAX], theirs[OUT_MAX];

/* The image by xz-image: 1 when every block decoded into out (its size in *size), 0 when something refused. */
static int decode_in_place(const uint8_t *data, size_t size, uint8_t *out, size_t *out_size) {
        uint64_t index_size;
        XzImage x;
        char error[256];
        int ok = 1;

        if (size < XZ_IMAGE_HEADER_SIZE + XZ_IMAGE_FOOTER_SIZE ||
            xz_image_index_size(data + size - XZ_IMAGE_FOOTER_SIZE, size, &index_size, error, sizeof error) < 0 ||
            xz_image_open(&x, data, data + size - XZ_IMAGE_FOOTER_SIZE,
                          data + size - XZ_IMAGE_FOOTER_SIZE - index_size, index_size, size, error, sizeof error) < 0)
                return 0;
        if (x.size > OUT_MAX) {
                xz_image_done(&x);
                return -1;      /* too large to compare here */
        }
        for (uint64_t offset = 0; ok && offset < x.size;) {
                ImageBlock b;

                if (xz_image_locate(&x, offset, &b) < 0 || b.offset != offset || b.size == 0 ||
                    b.file_offset + b.total > size)
                        abort();        /* the index was accepted: it must cover the image without gaps */
                ok = xz_image_decode(&x, &b, data + b.file_offset, out + offset, error, sizeof error) == 0;
                offset += b.size;
        }
        *out_size = x.size;
        xz_image_done(&x);
        return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint64_t memlimit = 128 << 20;
        size_t mine_size = 0, in_pos = 0, out_pos = 0;
        lzma_ret l;
        int r;

        r = decode_in_place(data, size, mine, &mine_size);
        l = lzma_stream_buffer_decode(&memlimit, 0, NULL, data, &in_pos, size, theirs, &out_pos, OUT_MAX);
        if (r == 1 && (l != LZMA_OK || in_pos != size || out_pos != mine_size || memcmp(mine, theirs, mine_size) != 0))
                abort();
        /* one stream that decodes, nothing after it: the blocks must decode in place as well */
        if (r == 0 && l == LZMA_OK && in_pos == size)
                abort();
        return 0;
}
