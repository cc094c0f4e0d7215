/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing a disk image so that its all-zero blocks become holes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "sparse-file.h"

#define BLOCK 4096
#define BUFFER (1024 * 1024)

struct SparseFile {
        int fd;
        unsigned char *buf;
        size_t used;
        uint64_t flushed;       /* file offset where buf starts */
};

int sparse_file_new(int fd, SparseFile **ret) {
        SparseFile *s = calloc(1, sizeof *s);

        if (!s)
                return -ENOMEM;
        if (posix_memalign((void **) &s->buf, BLOCK, BUFFER) != 0) {
                free(s);
                return -ENOMEM;
        }
        s->fd = fd;
        *ret = s;
        return 0;
}

void sparse_file_free(SparseFile *s) {
        if (!s)
                return;
        free(s->buf);
        free(s);
}

static bool block_is_zero(const unsigned char *p, size_t n) {
        /* First byte, then the block compared with itself shifted by one: all equal and zero. */
        return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* Writes the runs of non-zero blocks in buf; zero blocks stay holes. */
static int flush(SparseFile *s) {
        size_t i = 0;
        int r;

        while (i < s->used) {
                size_t start, n = MIN((size_t) BLOCK, s->used - i);

                if (block_is_zero(s->buf + i, n)) {
                        i += n;
                        continue;
                }
                start = i;
                while (i < s->used) {
                        n = MIN((size_t) BLOCK, s->used - i);
                        if (block_is_zero(s->buf + i, n))
                                break;
                        i += n;
                }
                r = pwrite_all(s->fd, s->buf + start, i - start, s->flushed + start);
                if (r < 0)
                        return r;
        }
        s->flushed += s->used;
        s->used = 0;
        return 0;
}

int sparse_file_write(SparseFile *s, const void *data, size_t size) {
        const unsigned char *p = data;
        int r;

        while (size > 0) {
                size_t n = MIN(size, (size_t) BUFFER - s->used);

                memcpy(s->buf + s->used, p, n);
                s->used += n;
                p += n;
                size -= n;
                if (s->used == BUFFER) {
                        r = flush(s);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

int sparse_file_finish(SparseFile *s) {
        int r = flush(s);

        if (r < 0)
                return r;
        /* Trailing holes are not written at all: the size comes from truncating up. */
        if (ftruncate(s->fd, (off_t) s->flushed) < 0)
                return -errno;
        return 0;
}

uint64_t sparse_file_size(const SparseFile *s) {
        return s->flushed + s->used;
}
