/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: format detection, the decompressors fed in odd-sized pieces into a sparse memfd
 * (xz: the block-parallel decoder with two workers), SHA256SUMS parsing. */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "checksums.h"
#include "decompress.h"
#include "fuzz.h"
#include "xz-parallel.h"

#define OUTPUT_MAX (64 * 1024 * 1024)

/* A decompression bomb stops at OUTPUT_MAX with EFBIG, as a full disk would stop the real tool. */
static void limit_output(void) {
        static bool done;
        struct rlimit l = { OUTPUT_MAX, OUTPUT_MAX };

        if (done)
                return;
        (void) signal(SIGXFSZ, SIG_IGN);
        (void) setrlimit(RLIMIT_FSIZE, &l);
        done = true;
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

#define FUZZ_MEMORY_BUDGET (UINT64_C(64) << 20)

static void decode_xz(int fd, const uint8_t *data, size_t size, size_t piece) {
        Pieces p = { data, size, 0, piece };
        /* A budget the fuzzer cannot push the process past (LeakSanitizer and -rss_limit_mb watch). */
        XzDecodeOptions o = { .threads = 2, .read = read_pieces, .userdata = &p, .memory_budget = FUZZ_MEMORY_BUDGET };
        XzDecodeResult out;

        (void) xz_decode_to_file(fd, &o, &out);
}

static void decode_stream(int fd, Compression c, const uint8_t *data, size_t size, size_t piece) {
        Decompressor *d = NULL;
        SparseFile *sf = NULL;
        int r;

        r = sparse_file_new(fd, 64 * 1024, &sf);
        if (r >= 0)
                r = decompressor_new(c, FUZZ_MEMORY_BUDGET, &d);
        for (size_t off = 0; off < size && r >= 0; off += piece)
                r = decompressor_push(d, data + off, size - off < piece ? size - off : piece, sf);
        if (r >= 0)
                r = decompressor_finish(d);
        if (r >= 0)
                (void) sparse_file_finish(sf);
        decompressor_free(d);
        sparse_file_free(sf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Compression c = compression_detect(data, size);
        size_t piece = 1 + (size % 7) * 1000;
        char hex[65];
        int fd;

        limit_output();
        fd = memfd_create("fuzz-decompress", 0);
        if (fd >= 0) {
                if (c == COMPRESSION_XZ)
                        decode_xz(fd, data, size, piece);
                else
                        decode_stream(fd, c, data, size, piece);
                close(fd);
        }

        (void) checksums_find((const char *) data, size, "disk.raw.zst", hex);
        return 0;
}
