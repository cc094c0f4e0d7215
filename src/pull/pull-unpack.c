/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The unpacking thread of an attempt: ring buffer → decoder → sparse file, or → libarchive.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "decompress.h"
#include "flusher.h"
#include "macro.h"
#include "progress.h"
#include "pull-attempt.h"
#include "pull-unpack.h"
#include "sparse-file.h"
#include "tar-unpack.h"
#include "xz-parallel.h"

#define READ_CHUNK (256 * 1024)
#define SPARSE_BUFFER (1024 * 1024)
/* Bytes written between two fdatasync() calls of the flusher thread (flusher.h). */
#define FLUSH_STEP (32 * 1024 * 1024)

/* Reads from the downloader; a negative result is the downloader's failure, not ours. */
static long read_ring(void *userdata, void *buf, size_t size) {
        Attempt *a = userdata;
        long n = ring_buffer_read(a->ring, buf, size);

        if (n < 0)
                a->ring_error = true;
        return n;
}

/* zstd, gzip, bzip2 or none: one decoder, output appended in order. */
static int unpack_stream(Attempt *a, unsigned char *buf, size_t head, Flusher *flusher) {
        Decompressor *d = NULL;
        SparseFile *sf = NULL;
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
        if (r >= 0)
                r = decompressor_push(d, buf, head, sf);
        while (r >= 0) {
                n = read_ring(a, buf, READ_CHUNK);
                if (n <= 0) {
                        r = (int) n;
                        break;
                }
                r = decompressor_push(d, buf, (size_t) n, sf);
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

static int unpack_raw(Attempt *a) {
        unsigned char *buf = malloc(READ_CHUNK);
        Flusher *flusher = NULL;
        size_t head = 0;
        long n;
        int r = 0;

        if (!buf)
                return -ENOMEM;

        /* Enough bytes to tell the format. */
        while (head < COMPRESSION_MAGIC_MAX) {
                n = read_ring(a, buf + head, COMPRESSION_MAGIC_MAX - head);
                if (n < 0) {
                        r = (int) n;
                        goto finish;
                }
                if (n == 0)
                        break;
                head += (size_t) n;
        }
        a->compression = compression_detect(buf, head);
        /* Without it (no thread to be had) the final fsync just has more to do. */
        (void) flusher_start(a->fd, FLUSH_STEP, &flusher);
        if (a->compression == COMPRESSION_XZ) {
                XzDecodeOptions xo = {
                        .threads = a->o->threads ?: (unsigned) MAX(sysconf(_SC_NPROCESSORS_ONLN), 1L),
                        .prefix = buf,
                        .prefix_size = head,
                        .read = read_ring,
                        .userdata = a,
                        .flusher = flusher,
                        .memory_budget = a->o->memory_budget,
                };
                XzDecodeResult xr;

                r = xz_decode_to_file(a->fd, &xo, &xr);
                a->report->image_size = xr.size;
                if (r == -E2BIG) {
                        char need[32], budget[32];
                        snprintf(a->unpack_error, sizeof a->unpack_error,
                                 "one xz block needs %s of memory to decode, more than the budget of %s "
                                 "(--memory-limit=)", format_bytes(need, sizeof need, xr.memory_needed),
                                 format_bytes(budget, sizeof budget, a->o->memory_budget ?: XZ_MEMORY_BUDGET_DEFAULT));
                }
        } else
                r = unpack_stream(a, buf, head, flusher);

        if (r == -E2BIG && a->compression == COMPRESSION_ZSTD) {
                char budget[32];
                snprintf(a->unpack_error, sizeof a->unpack_error,
                         "the zstd data needs a larger window than the memory budget of %s allows (--memory-limit=)",
                         format_bytes(budget, sizeof budget, a->o->memory_budget));
        } else if (r == -EBADMSG)
                snprintf(a->unpack_error, sizeof a->unpack_error, "the %s data is corrupt",
                         compression_to_string(a->compression));
        else if (r == -EPIPE)
                snprintf(a->unpack_error, sizeof a->unpack_error, "the %s stream is incomplete (truncated download?)",
                         compression_to_string(a->compression));
finish:
        (void) flusher_stop(flusher);
        free(buf);
        return r;
}

static int unpack_tar(Attempt *a) {
        char buf[4096];
        long n;
        int r;

        r = tar_unpack(a->fd, read_ring, a, &a->root_entry, a->unpack_error, sizeof a->unpack_error);
        if (r < 0)
                return r;
        /* libarchive stops at the end-of-archive marker; the rest (padding) must still be consumed,
         * or the downloader would wait forever for room. */
        while ((n = read_ring(a, buf, sizeof buf)) > 0)
                ;
        return (int) n;
}

void *pull_unpack_thread(void *userdata) {
        Attempt *a = userdata;
        int r = a->o->type == IMAGE_TAR ? unpack_tar(a) : unpack_raw(a);

        a->unpack_result = r;
        /* Tell the downloader to stop if we cannot go on. */
        if (r < 0 && !a->ring_error) {
                a->unpack_failed = true;
                ring_buffer_abort(a->ring, r);
        }
        return NULL;
}
