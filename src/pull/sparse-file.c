/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing a disk image so that its all-zero blocks become holes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "sparse-file.h"

#define BLOCK 4096
/* Start writeback after this many bytes, so the final fsync finds little left to write. */
#define WRITEBACK_STEP (8 * 1024 * 1024)

struct SparseFile {
        int fd;
        unsigned char *buf;
        size_t size, used;
        uint64_t flushed;       /* file offset where buf starts */
        uint64_t dirty_start;   /* the range written since writeback was last started */
        uint64_t dirty_end;
};

/* Asks the kernel to start writing the range out now, without waiting: writing the image and
 * flushing it overlap instead of the whole image waiting for fsync at the end. Advisory; where
 * the file system cannot (tmpfs), nothing happens. */
static void start_writeback(SparseFile *s, uint64_t start, uint64_t end) {
        if (s->dirty_end == s->dirty_start)
                s->dirty_start = start;
        s->dirty_start = MIN(s->dirty_start, start);
        s->dirty_end = MAX(s->dirty_end, end);
        if (s->dirty_end - s->dirty_start < WRITEBACK_STEP)
                return;
        (void) sync_file_range(s->fd, (off64_t) s->dirty_start, (off64_t) (s->dirty_end - s->dirty_start),
                               SYNC_FILE_RANGE_WRITE);
        s->dirty_start = s->dirty_end;
}

int sparse_file_new(int fd, size_t buffer_size, SparseFile **ret) {
        SparseFile *s = calloc(1, sizeof *s);

        if (!s)
                return -ENOMEM;
        s->size = ALIGN_TO(MAX(buffer_size, (size_t) BLOCK), (size_t) BLOCK);
        if (posix_memalign((void **) &s->buf, BLOCK, s->size) != 0) {
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
                start_writeback(s, s->flushed + start, s->flushed + i);
        }
        s->flushed += s->used;
        s->used = 0;
        return 0;
}

int sparse_file_write(SparseFile *s, const void *data, size_t size) {
        const unsigned char *p = data;
        int r;

        while (size > 0) {
                size_t n = MIN(size, s->size - s->used);

                memcpy(s->buf + s->used, p, n);
                s->used += n;
                p += n;
                size -= n;
                if (s->used == s->size) {
                        r = flush(s);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

int sparse_file_flush(SparseFile *s) {
        return flush(s);
}

int sparse_file_seek(SparseFile *s, uint64_t offset) {
        int r = flush(s);

        if (r < 0)
                return r;
        s->flushed = offset;
        return 0;
}

int sparse_file_space(SparseFile *s, void **ret, size_t *ret_size) {
        int r;

        if (s->used == s->size) {
                r = flush(s);
                if (r < 0)
                        return r;
        }
        *ret = s->buf + s->used;
        *ret_size = s->size - s->used;
        return 0;
}

void sparse_file_commit(SparseFile *s, size_t size) {
        s->used += MIN(size, s->size - s->used);
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
