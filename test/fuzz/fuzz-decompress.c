/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: format detection, the decompressors fed in odd-sized pieces (xz: the block-parallel
 * decoder with two workers, into a memfd), SHA256SUMS parsing. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <string.h>

#include "checksums.h"
#include "decompress.h"
#include "fuzz.h"
#include "xz-parallel.h"

#define OUTPUT_MAX (64 * 1024 * 1024)

static int count(const void *data, size_t size, void *userdata) {
        size_t *total = userdata;

        *total += size;
        /* A decompression bomb stops here, as a full disk would stop the real tool. */
        return *total > OUTPUT_MAX ? -27 /* EFBIG */ : 0;
}

typedef struct Pieces {
        const uint8_t *data;
        size_t size, pos, piece;
} Pieces;

static long read_pieces(void *userdata, void *buf, size_t size) {
        Pieces *p = userdata;
        size_t n = p->size - p->pos;

        n = n < p->piece ? n : p->piece;
        n = n < size ? n : size;
        memcpy(buf, p->data + p->pos, n);
        p->pos += n;
        return (long) n;
}

static void decode_xz(const uint8_t *data, size_t size, size_t piece) {
        Pieces p = { data, size, 0, piece };
        XzDecodeOptions o = { .threads = 2, .read = read_pieces, .userdata = &p };
        uint64_t out;
        int fd = memfd_create("fuzz-xz", 0);

        if (fd < 0)
                return;
        (void) xz_decode_to_file(fd, &o, &out);
        close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Compression c = compression_detect(data, size);
        Decompressor *d;
        size_t total = 0, piece = 1 + (size % 7) * 1000;
        char hex[65];
        int r = 0;

        if (c == COMPRESSION_XZ)
                decode_xz(data, size, piece);
        else if (decompressor_new(c, &d) >= 0) {
                for (size_t off = 0; off < size && r >= 0; off += piece)
                        r = decompressor_push(d, data + off, size - off < piece ? size - off : piece, count, &total);
                if (r >= 0)
                        (void) decompressor_finish(d, count, &total);
                decompressor_free(d);
        }

        (void) checksums_find((const char *) data, size, "disk.raw.zst", hex);
        return 0;
}
