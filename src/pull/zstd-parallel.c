/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Decoding a multi-frame .zst into a new file, several frames at a time, in little memory.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "macro.h"
#include "sparse-file.h"
#include "stream-input.h"
#include "zstd-parallel.h"

/* A worker decodes straight into its file buffer when the frame fits (a seekable file's 1 MiB frames
 * do), else into a buffer of the frame's size, copied from. */
#define OUTPUT_BUFFER (1024 * 1024)
/* Frames waiting for or being decoded, per worker: one decoding, one ready for when it is done. */
#define FRAMES_PER_WORKER 2

#define FRAME_MAGIC 0xFD2FB528U
#define SKIPPABLE_MAGIC 0x184D2A50U
#define SKIPPABLE_MASK 0xFFFFFFF0U
#define BLOCK_HEADER_SIZE 3
#define BLOCK_SIZE_MAX (128 * 1024)
#define CHECKSUM_SIZE 4
/* zstd's windows are 1 KiB to 2 GiB (its public header keeps these in the static-only part). */
#define WINDOW_LOG_MIN 10
#define WINDOW_LOG_MAX 31

enum {
        BLOCK_RAW,
        BLOCK_RLE,
        BLOCK_COMPRESSED,
        BLOCK_RESERVED,
};

typedef struct FrameHeader {
        size_t size;                    /* of the header, the magic included */
        bool has_content_size;
        uint64_t content_size;
        bool has_checksum;
} FrameHeader;

/* A whole frame handed to a worker. */
typedef struct Job {
        struct Job *next;
        unsigned char *data;
        size_t size, allocated;
        uint64_t content_size;
        uint64_t offset;                /* where its output starts in the file */
        uint64_t need;                  /* its share of the budget */
} Job;

typedef struct ZstdDecoder ZstdDecoder;

typedef struct Worker {
        ZstdDecoder *z;
        pthread_t thread;
        ZSTD_DCtx *dctx;
        SparseFile *out;
} Worker;


struct ZstdDecoder {
        int fd;
        pthread_mutex_t lock;
        pthread_cond_t wake_workers, wake_reader;
        Job *first, *last;              /* handed out, not taken by a worker yet */
        Job *spare;                     /* done with, buffer kept: no page faults for every frame's */
        unsigned in_flight;             /* jobs queued or being decoded */
        uint64_t reserved;              /* of the budget, held by them */
        int error;                      /* the first failure */
        bool stopping;
        Worker *workers;
        unsigned n_workers, n_started;
        uint64_t budget;

        StreamInput in;
        Worker here;                    /* decodes on the reading thread when there are no workers */
        ZSTD_DStream *serial;           /* for frames without a size, on the reading thread */
        SparseFile *out;
        uint64_t offset;                /* where the next frame's output starts */
        uint64_t frames, serial_frames;
};

/* ---- framing (RFC 8878, 3.1.1) ---- */

static uint64_t le(const unsigned char *p, size_t n) {
        uint64_t v = 0;

        for (size_t i = n; i > 0; i--)
                v = v << 8 | p[i - 1];
        return v;
}

/* From the frame's first bytes, the magic included. @ret 1, 0 if more bytes are needed, -EBADMSG */
static int parse_frame_header(const unsigned char *p, size_t size, FrameHeader *ret) {
        static const size_t dict_id_sizes[4] = { 0, 1, 2, 4 };
        unsigned descriptor, fcs_flag;
        size_t fcs_size, pos;
        bool single_segment;

        if (size < 5)
                return 0;
        if (le(p, 4) != FRAME_MAGIC)
                return -EBADMSG;
        descriptor = p[4];
        if (descriptor & 0x08)
                return -EBADMSG; /* the reserved bit */
        fcs_flag = descriptor >> 6;
        single_segment = descriptor & 0x20;
        fcs_size = fcs_flag == 0 ? (single_segment ? 1 : 0) : (size_t) 1 << fcs_flag;
        pos = 5 + !single_segment + dict_id_sizes[descriptor & 3];
        if (size < pos + fcs_size)
                return 0;
        *ret = (FrameHeader) {
                .size = pos + fcs_size,
                .has_content_size = fcs_size > 0,
                .content_size = le(p + pos, fcs_size) + (fcs_size == 2 ? 256 : 0),
                .has_checksum = descriptor & 0x04,
        };
        return 1;
}

/* Compressed bytes a frame of content_size may take: what zstd makes at most, header and checksum
 * included. Only a crafted frame takes more (empty blocks), and it is refused. */
static uint64_t frame_size_max(uint64_t content_size) {
        return ZSTD_compressBound((size_t) content_size) + ZSTD_FRAME_HEADER_MAX + CHECKSUM_SIZE;
}

/* What a worker's frame holds of the budget: its compressed and decoded bytes. */
static uint64_t frame_need(uint64_t content_size) {
        return content_size + frame_size_max(content_size);
}

static bool frame_fits(const FrameHeader *h, uint64_t budget) {
        return h->has_content_size && h->content_size <= ZSTD_PARALLEL_FRAME_MAX &&
               frame_need(h->content_size) <= budget;
}

bool zstd_parallel_applies(const void *head, size_t size, uint64_t memory_budget) {
        FrameHeader h;

        assert(head || size == 0);

        return parse_frame_header(head, size, &h) > 0 && frame_fits(&h, memory_budget ?: ZSTD_MEMORY_BUDGET_DEFAULT);
}

/* ---- decoding one frame ---- */

static int zstd_error(size_t z) {
        switch (ZSTD_getErrorCode(z)) {
        case ZSTD_error_memory_allocation:
                return -ENOMEM;
        case ZSTD_error_frameParameter_windowTooLarge:
                return -E2BIG;
        default:
                return -EBADMSG;
        }
}

/* Decodes a whole frame in one call and writes it at its offset. */
static int decode_job(Worker *w, const Job *j) {
        unsigned char *dst = NULL, *allocated = NULL;
        size_t room_size, z;
        void *room;
        int r;

        r = sparse_file_seek(w->out, j->offset);
        if (r < 0)
                return r;
        /* After the seek the whole buffer is free. */
        r = sparse_file_space(w->out, &room, &room_size);
        if (r < 0)
                return r;
        if (j->content_size <= room_size)
                dst = room;
        else {
                dst = allocated = malloc((size_t) j->content_size ?: 1);
                if (!dst)
                        return -ENOMEM;
        }
        /* A buffer of exactly the stated size: a frame decoding to more fails, to less is caught below. */
        z = ZSTD_decompressDCtx(w->dctx, dst, (size_t) j->content_size, j->data, j->size);
        if (ZSTD_isError(z))
                r = zstd_error(z);
        else if (z != j->content_size)
                r = -EBADMSG;
        else if (allocated)
                r = sparse_file_write(w->out, dst, z);
        else
                sparse_file_commit(w->out, z);
        free(allocated);
        return r < 0 ? r : sparse_file_flush(w->out);
}

/* ---- workers ---- */

static void job_free(Job *j) {
        if (!j)
                return;
        free(j->data);
        free(j);
}

/* Keeps the job for the next frame. Called with the lock held. */
static void job_release_locked(ZstdDecoder *z, Job *j) {
        j->next = z->spare;
        z->spare = j;
}

static void job_release(ZstdDecoder *z, Job *j) {
        pthread_mutex_lock(&z->lock);
        job_release_locked(z, j);
        pthread_mutex_unlock(&z->lock);
}

/* A job done with, or a new one. */
static Job *job_get(ZstdDecoder *z) {
        Job *j;

        pthread_mutex_lock(&z->lock);
        j = z->spare;
        if (j)
                z->spare = j->next;
        pthread_mutex_unlock(&z->lock);
        return j ?: calloc(1, sizeof *j);
}

static void *worker_main(void *userdata) {
        Worker *w = userdata;
        ZstdDecoder *z = w->z;

        pthread_mutex_lock(&z->lock);
        for (;;) {
                bool failed;
                Job *j;
                int r = 0;

                while (!z->first && !z->stopping)
                        pthread_cond_wait(&z->wake_workers, &z->lock);
                j = z->first;
                if (!j)
                        break;
                z->first = j->next;
                if (!z->first)
                        z->last = NULL;
                /* After a failure the queue is only emptied. */
                failed = z->error != 0;
                pthread_mutex_unlock(&z->lock);
                if (!failed)
                        r = decode_job(w, j);
                pthread_mutex_lock(&z->lock);
                if (r < 0 && z->error == 0)
                        z->error = r;
                z->reserved -= j->need;
                z->in_flight--;
                job_release_locked(z, j);
                pthread_cond_broadcast(&z->wake_reader);
        }
        pthread_mutex_unlock(&z->lock);
        return NULL;
}

/* ---- the reading side ---- */

/* Hands the job to a worker once it fits beside the others. Takes it over, also on failure. */
static int dispatch(ZstdDecoder *z, Job *j) {
        int r;

        if (z->n_workers == 0) {
                r = decode_job(&z->here, j);
                job_release(z, j);
                return r;
        }
        pthread_mutex_lock(&z->lock);
        /* One job always goes out, however large: the check before reading it kept it within the budget. */
        while (z->error == 0 && z->in_flight > 0 &&
               (z->in_flight >= z->n_workers * FRAMES_PER_WORKER || z->reserved + j->need > z->budget))
                pthread_cond_wait(&z->wake_reader, &z->lock);
        r = z->error;
        if (r == 0) {
                if (z->last)
                        z->last->next = j;
                else
                        z->first = j;
                z->last = j;
                z->in_flight++;
                z->reserved += j->need;
                pthread_cond_signal(&z->wake_workers);
        }
        pthread_mutex_unlock(&z->lock);
        if (r < 0)
                job_release(z, j);
        return r;
}

/* Appends the next size bytes of the input to the job's, growing its buffer up to limit. */
/* Room for size more bytes in the job's buffer, which grows up to limit. */
static int job_reserve(Job *j, uint64_t limit, uint64_t size) {
        size_t n;
        unsigned char *p;

        if (size > limit - j->size)
                return -EBADMSG;
        if (j->size + size <= j->allocated)
                return 0;
        /* At least a block's worth: a kept buffer then serves any frame of its size after the first. */
        n = (size_t) MAX(MIN(MAX((uint64_t) j->allocated * 2, j->size + size), limit), (uint64_t) BLOCK_SIZE_MAX);
        p = realloc(j->data, n);
        if (!p)
                return -ENOMEM;
        j->data = p;
        j->allocated = n;
        return 0;
}

static int job_append(ZstdDecoder *z, Job *j, uint64_t limit, uint64_t size) {
        int r = job_reserve(j, limit, size);

        if (r < 0)
                return r;
        j->size += (size_t) size;
        return stream_input_read(&z->in, j->data + j->size - size, size);
}

/* Gathers a frame whose header has been read (in header) and hands it out. */
static int read_frame(ZstdDecoder *z, const unsigned char *header, const FrameHeader *h) {
        uint64_t limit = frame_size_max(h->content_size);
        Job *j = job_get(z);
        bool last = false;
        int r = 0;

        if (!j)
                return -ENOMEM;
        *j = (Job) { .data = j->data, .allocated = j->allocated, .content_size = h->content_size,
                     .offset = z->offset, .need = frame_need(h->content_size) };
        r = job_reserve(j, limit, h->size);
        if (r >= 0) {
                memcpy(j->data, header, h->size);
                j->size = h->size;
        }
        while (r >= 0 && !last) {
                unsigned char *b;
                uint64_t size;
                unsigned type;

                r = job_append(z, j, limit, BLOCK_HEADER_SIZE);
                if (r < 0)
                        break;
                b = j->data + j->size - BLOCK_HEADER_SIZE;
                last = b[0] & 1;
                type = (b[0] >> 1) & 3;
                size = le(b, BLOCK_HEADER_SIZE) >> 3;
                if (type == BLOCK_RESERVED || size > BLOCK_SIZE_MAX)
                        r = -EBADMSG;
                else
                        r = job_append(z, j, limit, type == BLOCK_RLE ? 1 : size);
        }
        if (r >= 0 && h->has_checksum)
                r = job_append(z, j, limit, CHECKSUM_SIZE);
        if (r < 0) {
                job_release(z, j);
                return r;
        }
        return dispatch(z, j);
}

/* The largest zstd window (a power of two) within budget. */
static int window_log(uint64_t budget) {
        int log = WINDOW_LOG_MIN;

        while (log < WINDOW_LOG_MAX && (UINT64_C(1) << (log + 1)) <= budget)
                log++;
        return log;
}

/* Feeds bytes to the streaming decoder. @ret 1 at the frame's end (*used says how far), 0, or <0 */
static int feed(ZstdDecoder *z, const void *data, size_t size, size_t *used) {
        ZSTD_inBuffer in = { data, size, 0 };

        for (;;) {
                ZSTD_outBuffer o = { .pos = 0 };
                size_t ret;
                int r;

                r = sparse_file_space(z->out, &o.dst, &o.size);
                if (r < 0)
                        return r;
                ret = ZSTD_decompressStream(z->serial, &o, &in);
                if (ZSTD_isError(ret))
                        return zstd_error(ret);
                sparse_file_commit(z->out, o.pos);
                z->offset += o.pos;
                *used = in.pos;
                /* 0: the frame is complete and flushed; the decoder reads no further than its end. */
                if (ret == 0)
                        return 1;
                if (in.pos == in.size && o.pos < o.size)
                        return 0;
        }
}

/* A frame without a size (or too large): decoded here, in order, after its header bytes. */
static int decode_serially(ZstdDecoder *z, const unsigned char *header, size_t header_size) {
        size_t used;
        int r;

        if (!z->serial) {
                z->serial = ZSTD_createDStream();
                if (!z->serial)
                        return -ENOMEM;
                if (ZSTD_isError(ZSTD_DCtx_setParameter(z->serial, ZSTD_d_windowLogMax, window_log(z->budget))))
                        return -EINVAL;
        }
        ZSTD_DCtx_reset(z->serial, ZSTD_reset_session_only);
        r = sparse_file_seek(z->out, z->offset);
        if (r < 0)
                return r;
        r = feed(z, header, header_size, &used);
        while (r == 0) {
                long n = stream_input_fill(&z->in);

                if (n <= 0)
                        return n < 0 ? (int) n : -EPIPE;
                r = feed(z, z->in.buf + z->in.pos, (size_t) n, &used);
                z->in.pos += used;
        }
        if (r < 0)
                return r;
        z->serial_frames++;
        return sparse_file_flush(z->out);
}

/* A frame from its magic (in header) on. */
static int zstd_frame(ZstdDecoder *z, unsigned char header[static ZSTD_FRAME_HEADER_MAX]) {
        FrameHeader h;
        size_t have = 4;
        int r;

        while ((r = parse_frame_header(header, have, &h)) == 0) {
                r = stream_input_read(&z->in, header + have, 1);
                if (r < 0)
                        return r;
                have++;
        }
        if (r < 0)
                return r;
        z->frames++;
        if (!frame_fits(&h, z->budget))
                return decode_serially(z, header, h.size);
        if (h.content_size > (uint64_t) INT64_MAX - z->offset)
                return -EBADMSG;
        r = read_frame(z, header, &h);
        if (r >= 0)
                z->offset += h.content_size;
        return r;
}

static int read_frames(ZstdDecoder *z) {
        for (;;) {
                unsigned char header[ZSTD_FRAME_HEADER_MAX];
                uint32_t magic;
                long n;
                int r;

                n = stream_input_fill(&z->in);
                if (n <= 0)
                        return (int) n;
                r = stream_input_read(&z->in, header, 4);
                if (r < 0)
                        return r;
                magic = (uint32_t) le(header, 4);
                if (magic == FRAME_MAGIC)
                        r = zstd_frame(z, header);
                else if ((magic & SKIPPABLE_MASK) == SKIPPABLE_MAGIC) {
                        r = stream_input_read(&z->in, header, 4);
                        if (r >= 0)
                                r = stream_input_read(&z->in, NULL, le(header, 4));
                } else
                        r = -EBADMSG;
                if (r < 0)
                        return r;
        }
}

/* ---- setting up and tearing down ---- */

static int worker_init(ZstdDecoder *z, Worker *w, Flusher *flusher) {
        int r;

        w->z = z;
        w->dctx = ZSTD_createDCtx();
        if (!w->dctx)
                return -ENOMEM;
        r = sparse_file_new(z->fd, OUTPUT_BUFFER, &w->out);
        if (r < 0)
                return r;
        sparse_file_set_flusher(w->out, flusher);
        return 0;
}

static void worker_done(Worker *w) {
        ZSTD_freeDCtx(w->dctx);
        sparse_file_free(w->out);
}

static int start_workers(ZstdDecoder *z, unsigned n, Flusher *flusher) {
        z->workers = calloc(n, sizeof *z->workers);
        if (!z->workers)
                return -ENOMEM;
        z->n_workers = n;
        for (unsigned i = 0; i < n; i++) {
                Worker *w = &z->workers[i];
                int r = worker_init(z, w, flusher);

                if (r < 0)
                        return r;
                if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
                        return -EAGAIN;
                z->n_started++;
        }
        return 0;
}

/* Waits for the workers to finish the frames handed out (all of them, or drop them after a failure). */
static void stop_workers(ZstdDecoder *z, int failure) {
        pthread_mutex_lock(&z->lock);
        if (failure < 0 && z->error == 0)
                z->error = failure;
        z->stopping = true;
        pthread_cond_broadcast(&z->wake_workers);
        pthread_mutex_unlock(&z->lock);
        for (unsigned i = 0; i < z->n_started; i++)
                pthread_join(z->workers[i].thread, NULL);
        /* Jobs queued while no worker could be started, and the spare ones. */
        while (z->first) {
                Job *j = z->first;
                z->first = j->next;
                job_free(j);
        }
        while (z->spare) {
                Job *j = z->spare;
                z->spare = j->next;
                job_free(j);
        }
        for (unsigned i = 0; i < z->n_workers; i++)
                worker_done(&z->workers[i]);
        free(z->workers);
}

int zstd_decode_to_file(int fd, const ZstdDecodeOptions *o, ZstdDecodeResult *ret) {
        ZstdDecoder *z = calloc(1, sizeof *z);
        int r;

        assert(fd >= 0);
        assert(o);
        assert(o->read);
        assert(ret);

        if (!z)
                return -ENOMEM;
        z->fd = fd;
        z->in = (StreamInput) { .prefix = o->prefix, .prefix_left = o->prefix_size, .read = o->read,
                          .userdata = o->userdata };
        z->budget = o->memory_budget ?: ZSTD_MEMORY_BUDGET_DEFAULT;
        *ret = (ZstdDecodeResult) {};
        pthread_mutex_init(&z->lock, NULL);
        pthread_cond_init(&z->wake_workers, NULL);
        pthread_cond_init(&z->wake_reader, NULL);

        r = sparse_file_new(fd, OUTPUT_BUFFER, &z->out);
        if (r >= 0)
                sparse_file_set_flusher(z->out, o->flusher);
        if (r >= 0)
                r = o->threads > 1 ? start_workers(z, o->threads, o->flusher) : worker_init(z, &z->here, o->flusher);
        if (r >= 0)
                r = read_frames(z);
        stop_workers(z, r);
        if (r >= 0)
                r = z->error;
        if (r >= 0)
                r = sparse_file_seek(z->out, z->offset);
        if (r >= 0)
                r = sparse_file_finish(z->out);
        if (r >= 0)
                *ret = (ZstdDecodeResult) { .size = z->offset, .frames = z->frames,
                                            .serial_frames = z->serial_frames };

        worker_done(&z->here);
        sparse_file_free(z->out);
        ZSTD_freeDStream(z->serial);
        pthread_cond_destroy(&z->wake_workers);
        pthread_cond_destroy(&z->wake_reader);
        pthread_mutex_destroy(&z->lock);
        free(z);
        return r;
}
