/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing a disk image so that its all-zero blocks become holes.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "flusher.h"
#include "macro.h"
#include "sparse-file.h"

#define BLOCK 4096
/* Start writeback after this many bytes, so the final fsync finds little left to write. */
#define WRITEBACK_STEP (8 * 1024 * 1024)

/* The writer thread of sparse_file_start_writer(): one buffer at a time. */
typedef struct Writer {
        pthread_t thread;
        pthread_mutex_t lock;
        pthread_cond_t changed;
        unsigned char *buf;     /* the buffer being written; NULL when idle */
        size_t used;
        uint64_t offset;
        int error;              /* the first failure, reported by the next call */
        bool stop;
} Writer;

struct SparseFile {
        int fd;
        unsigned char *buf;
        unsigned char *spare;   /* with a writer: the buffer it may be writing */
        size_t size, used;
        uint64_t flushed;       /* file offset where buf starts */
        uint64_t dirty_start;   /* the range written since writeback was last started */
        uint64_t dirty_end;
        uint64_t data_bytes;    /* written as data, not left as holes (by the writer, if any) */
        Writer *writer;
        Flusher *flusher;
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

static unsigned char *buffer_new(size_t size) {
        void *p;

        return posix_memalign(&p, BLOCK, size) == 0 ? p : NULL;
}

int sparse_file_new(int fd, size_t buffer_size, SparseFile **ret) {
        SparseFile *s = calloc(1, sizeof *s);

        assert(ret);

        if (!s)
                return -ENOMEM;
        s->size = ALIGN_TO(MAX(buffer_size, (size_t) BLOCK), (size_t) BLOCK);
        s->buf = buffer_new(s->size);
        if (!s->buf) {
                free(s);
                return -ENOMEM;
        }
        s->fd = fd;
        *ret = s;
        return 0;
}

void sparse_file_set_flusher(SparseFile *s, Flusher *f) {
        assert(s);

        s->flusher = f;
}

static bool block_is_zero(const unsigned char *p, size_t n) {
        /* First byte, then the block compared with itself shifted by one: all equal and zero. */
        return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* Writes the runs of non-zero blocks of buf at offset; zero blocks stay holes. */
static int write_runs(SparseFile *s, const unsigned char *buf, size_t used, uint64_t offset) {
        size_t i = 0;
        int r;

        while (i < used) {
                size_t start, n = MIN((size_t) BLOCK, used - i);

                if (block_is_zero(buf + i, n)) {
                        i += n;
                        continue;
                }
                start = i;
                while (i < used) {
                        n = MIN((size_t) BLOCK, used - i);
                        if (block_is_zero(buf + i, n))
                                break;
                        i += n;
                }
                r = pwrite_all(s->fd, buf + start, i - start, offset + start);
                if (r < 0)
                        return r;
                start_writeback(s, offset + start, offset + i);
                flusher_wrote(s->flusher, i - start);
                s->data_bytes += i - start;
        }
        return 0;
}

static void *writer_main(void *userdata) {
        SparseFile *s = userdata;
        Writer *w = s->writer;

        pthread_mutex_lock(&w->lock);
        for (;;) {
                while (!w->buf && !w->stop)
                        pthread_cond_wait(&w->changed, &w->lock);
                if (!w->buf)
                        break;
                pthread_mutex_unlock(&w->lock);
                int r = w->error < 0 ? 0 : write_runs(s, w->buf, w->used, w->offset);
                pthread_mutex_lock(&w->lock);
                if (r < 0 && w->error == 0)
                        w->error = r;
                w->buf = NULL;
                pthread_cond_broadcast(&w->changed);
        }
        pthread_mutex_unlock(&w->lock);
        return NULL;
}

int sparse_file_start_writer(SparseFile *s) {
        Writer *w;

        assert(s);

        if (s->writer)
                return 0;
        w = calloc(1, sizeof *w);
        if (!w)
                return -ENOMEM;
        s->spare = buffer_new(s->size);
        if (!s->spare) {
                free(w);
                return -ENOMEM;
        }
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->changed, NULL);
        s->writer = w;
        if (pthread_create(&w->thread, NULL, writer_main, s) != 0) {
                s->writer = NULL;
                pthread_cond_destroy(&w->changed);
                pthread_mutex_destroy(&w->lock);
                free(w);
                free(s->spare);
                s->spare = NULL;
                return -EAGAIN;
        }
        return 0;
}

/* Waits until the writer holds no buffer; its first failure, if any. */
static int writer_wait_idle(Writer *w) {
        int r;

        pthread_mutex_lock(&w->lock);
        while (w->buf)
                pthread_cond_wait(&w->changed, &w->lock);
        r = w->error;
        pthread_mutex_unlock(&w->lock);
        return r;
}

/* Hands buf to the writer (once it is idle) and continues in the spare buffer. */
static int writer_hand_over(SparseFile *s) {
        Writer *w = s->writer;
        unsigned char *full = s->buf;
        int r = writer_wait_idle(w);

        if (r < 0)
                return r;
        pthread_mutex_lock(&w->lock);
        w->buf = full;
        w->used = s->used;
        w->offset = s->flushed;
        pthread_cond_broadcast(&w->changed);
        pthread_mutex_unlock(&w->lock);
        s->buf = s->spare;
        s->spare = full;
        return 0;
}

/* Passes what is buffered on: written here, or handed to the writer. */
static int flush(SparseFile *s) {
        int r;

        if (s->used == 0)
                return 0;
        r = s->writer ? writer_hand_over(s) : write_runs(s, s->buf, s->used, s->flushed);
        if (r < 0)
                return r;
        s->flushed += s->used;
        s->used = 0;
        return 0;
}

/* Everything appended so far is in the file (or failed). */
static int drain(SparseFile *s) {
        int r = flush(s);

        if (r >= 0 && s->writer)
                r = writer_wait_idle(s->writer);
        return r;
}

void sparse_file_free(SparseFile *s) {
        Writer *w;

        if (!s)
                return;
        w = s->writer;
        if (w) {
                pthread_mutex_lock(&w->lock);
                w->stop = true;
                pthread_cond_broadcast(&w->changed);
                pthread_mutex_unlock(&w->lock);
                pthread_join(w->thread, NULL);
                pthread_cond_destroy(&w->changed);
                pthread_mutex_destroy(&w->lock);
                free(w);
        }
        free(s->spare);
        free(s->buf);
        free(s);
}

int sparse_file_write(SparseFile *s, const void *data, size_t size) {
        const unsigned char *p = data;
        int r;

        assert(s);
        assert(data || size == 0);

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
        assert(s);

        return drain(s);
}

int sparse_file_seek(SparseFile *s, uint64_t offset) {
        int r;

        assert(s);

        r = flush(s);
        if (r < 0)
                return r;
        s->flushed = offset;
        return 0;
}

int sparse_file_space(SparseFile *s, void **ret, size_t *ret_size) {
        int r;

        assert(s);
        assert(ret);
        assert(ret_size);

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
        assert(s);

        s->used += MIN(size, s->size - s->used);
}

int sparse_file_finish(SparseFile *s) {
        int r;

        assert(s);

        r = drain(s);
        if (r < 0)
                return r;
        /* Trailing holes are not written at all: the size comes from truncating up. */
        if (ftruncate(s->fd, (off_t) s->flushed) < 0)
                return -errno;
        return 0;
}

uint64_t sparse_file_data_bytes(const SparseFile *s) {
        assert(s);

        return s->data_bytes;
}

uint64_t sparse_file_size(const SparseFile *s) {
        assert(s);

        return s->flushed + s->used;
}
