/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: format detection, the four decompressors fed in odd-sized pieces, SHA256SUMS parsing. */
#include <stdlib.h>
#include <string.h>

#include "checksums.h"
#include "decompress.h"
#include "fuzz.h"

#define OUTPUT_MAX (64 * 1024 * 1024)

static int count(const void *data, size_t size, void *userdata) {
        size_t *total = userdata;

        *total += size;
        /* A decompression bomb stops here, as a full disk would stop the real tool. */
        return *total > OUTPUT_MAX ? -27 /* EFBIG */ : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Compression c = compression_detect(data, size);
        Decompressor *d;
        size_t total = 0, piece = 1 + (size % 7) * 1000;
        char hex[65];
        int r = 0;

        if (decompressor_new(c, &d) >= 0) {
                for (size_t off = 0; off < size && r >= 0; off += piece)
                        r = decompressor_push(d, data + off, size - off < piece ? size - off : piece, count, &total);
                if (r >= 0)
                        (void) decompressor_finish(d, count, &total);
                decompressor_free(d);
        }

        (void) checksums_find((const char *) data, size, "disk.raw.zst", hex);
        return 0;
}
