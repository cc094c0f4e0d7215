/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: format detection, the decompressors fed in odd-sized pieces into a sparse memfd
 * (xz: the block-parallel decoder with two workers; zstd: the frame-parallel one too), SHA256SUMS
 * parsing. */
#include <errno.h>
#include <fcntl.h>
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
#include "zstd-parallel.h"

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

static int decode_xz(int fd, const uint8_t *data, size_t size, size_t piece) {
        Pieces p = { data, size, 0, piece };
        /* A budget the fuzzer cannot push the process past (LeakSanitizer and -rss_limit_mb watch). */
        /* Input past the 1 MiB chunk budget goes through a spill file as in urlboot-pull (reached by inputs
         * with blocks over a MiB: run with -max_len of a few MiB and such a seed). */
        XzDecodeOptions o = { .threads = 2, .read = read_pieces, .userdata = &p, .memory_budget = FUZZ_MEMORY_BUDGET,
                              .spill_dir_fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC),
                              .spill_max = XZ_SPILL_DEFAULT };
        XzDecodeResult out;
        int r;

        r = xz_decode_to_file(fd, &o, &out);
        if (o.spill_dir_fd >= 0)
                close(o.spill_dir_fd);
        return r;
}

static int decode_zstd(int fd, const uint8_t *data, size_t size, size_t piece) {
        Pieces p = { data, size, 0, piece };
        ZstdDecodeOptions o = { .threads = 2, .read = read_pieces, .userdata = &p, .memory_budget = FUZZ_MEMORY_BUDGET };
        ZstdDecodeResult out;

        return zstd_decode_to_file(fd, &o, &out);
}

static int decode_stream(int fd, Compression c, const uint8_t *data, size_t size, size_t piece) {
        Decompressor *d = NULL;
        SparseFile *sf = NULL;
        DecodeSink sink;
        int r;

        r = sparse_file_new(fd, 64 * 1024, &sf);
        sink = decode_sink_sparse_file(sf);
        if (r >= 0)
                r = decompressor_new(c, FUZZ_MEMORY_BUDGET, &d);
        for (size_t off = 0; off < size && r >= 0; off += piece)
                r = decompressor_push(d, data + off, size - off < piece ? size - off : piece, &sink);
        if (r >= 0)
                r = decompressor_finish(d);
        if (r >= 0)
                r = sparse_file_finish(sf);
        decompressor_free(d);
        sparse_file_free(sf);
        return r;
}

/* Whether two files hold the same bytes. */
static bool same_contents(int a, int b) {
        static uint8_t x[65536], y[65536];
        off_t sa = lseek(a, 0, SEEK_END), sb = lseek(b, 0, SEEK_END);

        if (sa != sb)
                return false;
        for (off_t off = 0; off < sa; off += (off_t) sizeof x) {
                ssize_t n = pread(a, x, sizeof x, off);
                if (n < 0 || pread(b, y, (size_t) n, off) != n || memcmp(x, y, (size_t) n) != 0)
                        return false;
        }
        return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Compression c = compression_detect(data, size);
        size_t piece = 1 + (size % 7) * 1000;
        char hex[65];
        int fd;

        limit_output();
        fd = memfd_create("fuzz-decompress", 0);
        if (fd >= 0) {
                if (c == COMPRESSION_XZ || c == COMPRESSION_ZSTD) {
                        /* Raw images and tarballs decode xz differently (by blocks at their offsets, and
                         * as one stream), and zstd too (by frames at their offsets; urlboot-pull takes the
                         * stream for a file whose first frame does not state its size, this decoder gets
                         * all of them here): whenever both accept the data, they must agree on every byte. */
                        int fd2 = memfd_create("fuzz-decompress-stream", 0);
                        int r1 = c == COMPRESSION_XZ ? decode_xz(fd, data, size, piece) : decode_zstd(fd, data, size, piece);
                        int r2 = fd2 >= 0 ? decode_stream(fd2, c, data, size, piece) : -1;

                        if (r1 >= 0 && r2 >= 0 && !same_contents(fd, fd2))
                                abort();
                        /* And xz that the stream decoder takes, the block decoder takes too (but for the
                         * limits: output, memory), whichever way its input went (memory or spill file). */
                        if (c == COMPRESSION_XZ && r2 >= 0 && r1 < 0 && r1 != -EFBIG && r1 != -E2BIG && r1 != -ENOMEM)
                                abort();
                        if (fd2 >= 0)
                                close(fd2);
                } else
                        (void) decode_stream(fd, c, data, size, piece);
                close(fd);
        }

        (void) checksums_find((const char *) data, size, "disk.raw.zst", hex);
        return 0;
}
