/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The unpacking thread of an attempt: ring buffer → decoder → sparse file (raw), or ring buffer →
 * decoder → a second ring buffer → libarchive (tar). Tarballs are decoded by our decoders, within
 * the same memory budget as raw images; libarchive only ever sees plain tar.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decompress.h"
#include "flusher.h"
#include "log.h"
#include "macro.h"
#include "progress.h"
#include "pull-attempt.h"
#include "pull-unpack.h"
#include "ring-buffer.h"
#include "sparse-file.h"
#include "tar-unpack.h"
#include "xz-parallel.h"
#include "zstd-parallel.h"

#define READ_CHUNK (256 * 1024)
#define SPARSE_BUFFER (1024 * 1024)
/* Bytes written between two fdatasync() calls of the flusher thread (flusher.h). */
#define FLUSH_STEP (32 * 1024 * 1024)
/* Between the decoder of a compressed tarball and libarchive. */
#define TAR_RING_CAPACITY (256 * 1024)
#define TAR_DECODE_BUFFER (64 * 1024)

/* Reads from the downloader; a negative result is the downloader's failure, not ours. */
static long read_ring(void *userdata, void *buf, size_t size) {
        Attempt *a = userdata;
        long n = ring_buffer_read(a->ring, buf, size);

        if (n < 0)
                a->ring_error = true;
        return n;
}

/* At least want bytes in buf, counting the head ones there (fewer at the end of a short file).
 * @ret bytes or <0 */
static long read_head(Attempt *a, unsigned char *buf, size_t head, size_t want) {
        while (head < want) {
                long n = read_ring(a, buf + head, want - head);

                if (n < 0)
                        return n;
                if (n == 0)
                        break;
                head += (size_t) n;
        }
        return (long) head;
}

/* The one-line reason for a decoder's failure, in a->unpack_error. */
static void describe_decode_error(Attempt *a, int r, uint64_t memory_needed) {
        const char *what = compression_to_string(a->compression);
        char budget[32], need[32];

        format_bytes(budget, sizeof budget, a->o->memory_budget ?: XZ_MEMORY_BUDGET_DEFAULT);
        if (r == -E2BIG && memory_needed > 0)
                snprintf(a->unpack_error, sizeof a->unpack_error,
                         "one xz block needs %s of memory to decode, more than the budget of %s (--memory-limit=)",
                         format_bytes(need, sizeof need, memory_needed), budget);
        else if (r == -E2BIG)
                snprintf(a->unpack_error, sizeof a->unpack_error,
                         "the %s data needs more memory to decode (its window or dictionary) than the budget of %s "
                         "(--memory-limit=)", what, budget);
        else if (r == -EBADMSG)
                snprintf(a->unpack_error, sizeof a->unpack_error, "the %s data is corrupt", what);
        else if (r == -EPIPE)
                snprintf(a->unpack_error, sizeof a->unpack_error, "the %s stream is incomplete (truncated download?)",
                         what);
}

/* ---- raw images ---- */

/* zstd, gzip, bzip2 or none: one decoder, output appended in order. */
static int unpack_stream(Attempt *a, unsigned char *buf, size_t head, Flusher *flusher) {
        Decompressor *d = NULL;
        SparseFile *sf = NULL;
        DecodeSink sink;
        long n;
        int r;

        r = sparse_file_new(a->fd, SPARSE_BUFFER, &sf);
        if (r >= 0)
                sparse_file_set_flusher(sf, flusher);
        /* Decoding is the slowest step: the copies into the page cache go to a thread of their own. */
        if (r >= 0)
                r = sparse_file_start_writer(sf);
        if (r >= 0)
                r = decompressor_new(a->compression, a->o->memory_budget, &d);
        sink = decode_sink_sparse_file(sf);
        if (r >= 0)
                r = decompressor_push(d, buf, head, &sink);
        while (r >= 0) {
                n = read_ring(a, buf, READ_CHUNK);
                if (n <= 0) {
                        r = (int) n;
                        break;
                }
                r = decompressor_push(d, buf, (size_t) n, &sink);
        }
        if (r >= 0)
                r = decompressor_finish(d);
        if (r >= 0)
                r = sparse_file_finish(sf);
        if (r >= 0)
                a->report->image_size = sparse_file_size(sf);
        decompressor_free(d);
        sparse_file_free(sf);
        return r;
}

static unsigned decoder_threads(Attempt *a) {
        return a->o->threads ?: (unsigned) MAX(sysconf(_SC_NPROCESSORS_ONLN), 1L);
}

/* zstd in frames that state their sizes (a seekable .zst): several frames at once. With one thread
 * the stream decoder is faster: its writer thread overlaps the writes with decoding. */
static int unpack_zstd_frames(Attempt *a, unsigned char *buf, size_t head, Flusher *flusher) {
        ZstdDecodeOptions zo = {
                .threads = decoder_threads(a),
                .prefix = buf,
                .prefix_size = head,
                .read = read_ring,
                .userdata = a,
                .flusher = flusher,
                .memory_budget = a->o->memory_budget,
        };
        ZstdDecodeResult zr;
        int r;

        r = zstd_decode_to_file(a->fd, &zo, &zr);
        a->report->image_size = zr.size;
        return r;
}

static int unpack_raw(Attempt *a) {
        unsigned char *buf = malloc(READ_CHUNK);
        uint64_t memory_needed = 0;
        Flusher *flusher = NULL;
        long head;
        int r;

        if (!buf)
                return -ENOMEM;
        head = read_head(a, buf, 0, COMPRESSION_MAGIC_MAX);
        if (head >= 0)
                a->compression = compression_detect(buf, (size_t) head);
        /* The first frame's header says whether its frames can be decoded in parallel. */
        if (head >= 0 && a->compression == COMPRESSION_ZSTD)
                head = read_head(a, buf, (size_t) head, ZSTD_FRAME_HEADER_MAX);
        if (head < 0) {
                free(buf);
                return (int) head;
        }
        /* Without it (no thread to be had) the final fsync just has more to do. */
        (void) flusher_start(a->fd, FLUSH_STEP, &flusher);
        if (a->compression == COMPRESSION_XZ) {
                XzDecodeOptions xo = {
                        .threads = decoder_threads(a),
                        .prefix = buf,
                        .prefix_size = (size_t) head,
                        .read = read_ring,
                        .userdata = a,
                        .flusher = flusher,
                        .memory_budget = a->o->memory_budget,
                        .spill_dir_fd = a->root_fd,
                        .spill_max = XZ_SPILL_DEFAULT,
                };
                XzDecodeResult xr;

                r = xz_decode_to_file(a->fd, &xo, &xr);
                a->report->image_size = xr.size;
                memory_needed = xr.memory_needed;
                if (r >= 0 && xr.spill_error < 0)
                        log_info("Reading %s ahead into %s failed (%s); the rest was read as memory allowed.",
                                 a->url, a->o->image_root, strerror(-xr.spill_error));
        } else if (a->compression == COMPRESSION_ZSTD && decoder_threads(a) > 1 &&
                   zstd_parallel_applies(buf, (size_t) head, a->o->memory_budget))
                r = unpack_zstd_frames(a, buf, (size_t) head, flusher);
        else
                r = unpack_stream(a, buf, (size_t) head, flusher);
        if (r < 0 && !a->ring_error)
                describe_decode_error(a, r, memory_needed);
        (void) flusher_stop(flusher);
        free(buf);
        return r;
}

/* ---- tarballs ---- */

typedef struct TarSource {
        Attempt *a;
        const unsigned char *head;      /* read before the compression was known */
        size_t head_left;
        RingBuffer *plain;              /* decoded bytes, when compressed */
        Decompressor *decoder;
        unsigned char buf[TAR_DECODE_BUFFER];
        int decode_result;
        bool decoder_failed;            /* libarchive read the decoder's failure from the plain ring */
} TarSource;

/* What libarchive reads: the decoded stream, or the download itself (head first). */
static long read_tar(void *userdata, void *buf, size_t size) {
        TarSource *t = userdata;

        if (t->plain) {
                long n = ring_buffer_read(t->plain, buf, size);

                if (n < 0)
                        t->decoder_failed = true;
                return n;
        }
        if (t->head_left > 0) {
                size_t n = MIN(size, t->head_left);
                memcpy(buf, t->head, n);
                t->head += n;
                t->head_left -= n;
                return (long) n;
        }
        return read_ring(t->a, buf, size);
}

static int plain_space(void *userdata, void **ret, size_t *ret_size) {
        TarSource *t = userdata;

        *ret = t->buf;
        *ret_size = sizeof t->buf;
        return 0;
}

static int plain_commit(void *userdata, size_t size) {
        TarSource *t = userdata;

        return size > 0 ? ring_buffer_write(t->plain, t->buf, size) : 0;
}

/* The decoding thread: download ring → decoder → plain ring, closed with the outcome. */
static void *decode_thread(void *userdata) {
        TarSource *t = userdata;
        DecodeSink sink = { .space = plain_space, .commit = plain_commit, .userdata = t };
        unsigned char *in = malloc(READ_CHUNK);
        int r = in ? decompressor_push(t->decoder, t->head, t->head_left, &sink) : -ENOMEM;

        while (r >= 0) {
                long n = read_ring(t->a, in, READ_CHUNK);

                if (n <= 0) {
                        r = (int) n;
                        break;
                }
                r = decompressor_push(t->decoder, in, (size_t) n, &sink);
        }
        if (r >= 0)
                r = decompressor_finish(t->decoder);
        t->decode_result = r;
        ring_buffer_close(t->plain, r);
        free(in);
        return NULL;
}

/* libarchive stops at the end-of-archive marker; the rest (padding) must still be read, or the
 * writer on the other side would wait forever for room. */
static int drain(TarSource *t) {
        char buf[4096];
        long n;

        while ((n = read_tar(t, buf, sizeof buf)) > 0)
                ;
        return (int) n;
}

static int unpack_compressed_tar(Attempt *a, TarSource *t) {
        pthread_t thread;
        int r;

        r = decompressor_new(a->compression, a->o->memory_budget, &t->decoder);
        if (r >= 0)
                r = ring_buffer_new(TAR_RING_CAPACITY, &t->plain);
        if (r >= 0 && pthread_create(&thread, NULL, decode_thread, t) != 0)
                r = -EAGAIN;
        if (r < 0) {
                decompressor_free(t->decoder);
                ring_buffer_free(t->plain);
                return r;
        }
        r = tar_unpack(a->fd, read_tar, t, &a->root, a->unpack_error, sizeof a->unpack_error);
        if (r >= 0)
                r = drain(t);
        else
                ring_buffer_abort(t->plain, r); /* the decoder's next write fails: it stops */
        pthread_join(thread, NULL);
        /* A decoder that failed on its own (corrupt, truncated, over the budget) is the cause. */
        if (t->decoder_failed && t->decode_result < 0 && !a->ring_error) {
                r = t->decode_result;
                describe_decode_error(a, r, 0);
        }
        decompressor_free(t->decoder);
        ring_buffer_free(t->plain);
        return r;
}

static int unpack_tar(Attempt *a) {
        unsigned char head[COMPRESSION_MAGIC_MAX];
        TarSource *t;
        long n;
        int r;

        n = read_head(a, head, 0, sizeof head);
        if (n < 0)
                return (int) n;
        a->compression = compression_detect(head, (size_t) n);
        t = calloc(1, sizeof *t);
        if (!t)
                return -ENOMEM;
        *t = (TarSource) { .a = a, .head = head, .head_left = (size_t) n };
        if (a->compression == COMPRESSION_NONE) {
                r = tar_unpack(a->fd, read_tar, t, &a->root, a->unpack_error, sizeof a->unpack_error);
                if (r >= 0)
                        r = drain(t);
        } else
                r = unpack_compressed_tar(a, t);
        free(t);
        return r;
}

void *pull_unpack_thread(void *userdata) {
        Attempt *a = userdata;
        int r;

        assert(a);

        r = a->o->type == IMAGE_TAR ? unpack_tar(a) : unpack_raw(a);
        a->unpack_result = r;
        /* Tell the downloader to stop if we cannot go on. */
        if (r < 0 && !a->ring_error) {
                a->unpack_failed = true;
                ring_buffer_abort(a->ring, r);
        }
        return NULL;
}
