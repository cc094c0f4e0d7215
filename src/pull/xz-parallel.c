/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Decoding .xz into a new file, several blocks at a time, in little memory.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "macro.h"
#include "sparse-file.h"
#include "stream-input.h"
#include "xz-parallel.h"

#define CHUNK_SIZE (256 * 1024)
/* Output gathered before each write; a worker decodes into it directly. */
#define OUTPUT_BUFFER (128 * 1024)
/* Compressed bytes waiting for workers in memory, in all. While one worker decodes, the reader must
 * get past the rest of its block to feed the next worker, so more lets more blocks overlap; less only
 * costs parallelism, never correctness. `xz -T2 -6` makes 24 MiB blocks, packed to 2-7 MiB for an
 * OS image: without a spill file, 3 MiB keeps two workers as busy as xz -T2 keeps its own (4 MiB gains
 * 3 %, 2 MiB loses 15 %); with one, the rest of the block goes there, and 1 MiB is as fast as 3
 * (tools/bench/pull-bench, docs/performance.md). */
#define CHUNK_BUDGET (3 * 1024 * 1024 / CHUNK_SIZE)
#define CHUNK_BUDGET_SPILLING (1024 * 1024 / CHUNK_SIZE)
/* A block this small (with its header) is kept after it is handed out, so that a repeat of it is
 * recognised: the same bytes decode to the same output (a block starts with a fresh decoder, and its
 * check type is the stream's), so a repeat of a block that decoded to zeros only needs no decoding, its
 * range staying a hole. `xz -T` cuts a disk image's empty space into such identical blocks (4 KiB
 * for each 24 MiB of zeros), whose decoding took a third of the CPU time of a 1 GiB image with
 * 680 MiB of them (docs/performance.md). */
#define REPEAT_MAX (64 * 1024)
/* Input read ahead into the spill file goes there, and comes back, in pieces of this size. */
#define SPILL_PIECE (64 * 1024)
#define NOT_SPILLED UINT64_MAX

typedef struct Chunk {
        struct Chunk *next;
        size_t size;
        uint64_t spilled_at;            /* where the spill file holds its bytes; NOT_SPILLED: in data[] */
        unsigned char data[];           /* CHUNK_DATA bytes, none for a spilled chunk */
} Chunk;

/* A chunk with its header and malloc's fills CHUNK_SIZE exactly: whole pages, none wasted. */
#define CHUNK_DATA (CHUNK_SIZE - 2 * sizeof(size_t) - offsetof(Chunk, data))

/* One block handed to a worker. */
typedef struct Job {
        lzma_block block;
        lzma_filter filters[LZMA_FILTERS_MAX + 1];
        uint64_t offset;                /* where its output starts in the file */
        Chunk *first, *last;            /* input not decoded yet */
        bool complete;                  /* all of its input is queued */
        unsigned repeat_generation;     /* the kept block it is (Repeat), 0 if none */
} Job;

typedef enum RepeatState {
        REPEAT_NONE,                    /* nothing kept */
        REPEAT_PENDING,                 /* kept, its worker still decoding it */
        REPEAT_ZEROS,                   /* it decoded to zeros only: a repeat is a hole */
        REPEAT_DATA,                    /* it did not (or failed): a repeat is decoded */
} RepeatState;

/* The last small block handed out, to recognise its repeats (REPEAT_MAX). */
typedef struct Repeat {
        unsigned char bytes[REPEAT_MAX];        /* the whole block, header first */
        size_t size;
        unsigned generation;                    /* which handed-out block state is about */
        RepeatState state;
} Repeat;

typedef struct XzDecoder XzDecoder;

typedef struct Worker {
        XzDecoder *x;
        pthread_t thread;
        bool busy;                      /* job is valid */
        uint64_t held;                  /* memory budget reserved for the job's decoder */
        Job job;
        lzma_stream strm;
        SparseFile *out;
        unsigned char *spill_piece;     /* a spilled chunk read back (SPILL_PIECE), NULL without a spill file */
} Worker;


struct XzDecoder {
        int fd;
        pthread_mutex_t lock;
        pthread_cond_t wake_workers, wake_reader;
        Chunk *free_chunks;
        unsigned n_chunks;              /* allocated, free or queued */
        int spill_fd;                   /* input read ahead of the chunk budget, -1 if none */
        uint64_t spill_max;             /* bytes it may hold at once */
        uint64_t spilled;               /* bytes it holds, queued and not decoded yet */
        uint64_t spill_end;             /* where the next spilled bytes go */
        int spill_error;                /* a write to it failed: no more reading ahead into it */
        int error;                      /* the first worker failure */
        bool stopping;
        Worker *workers;
        unsigned n_workers, n_started;
        uint64_t budget;                /* memory all block decoders may use at once */
        uint64_t reserved;              /* of it, held by decoders now */
        uint64_t needed;                /* the need of a block over the budget, for the message */

        StreamInput in;
        lzma_stream serial;             /* for blocks without sizes, on the reading thread */
        SparseFile *out;
        lzma_stream_flags flags;        /* of the current stream */
        lzma_index_hash *index;
        uint64_t offset;                /* where the next block's output starts */
        uint64_t skipped;               /* output of repeated zero blocks, not decoded */
        Repeat repeat;
        unsigned char small[REPEAT_MAX];        /* a small block being read */
};

/* ---- decoding one block's bytes ---- */

static int lzma_error(lzma_ret l) {
        switch (l) {
        case LZMA_MEM_ERROR:
                return -ENOMEM;
        case LZMA_MEMLIMIT_ERROR:
                return -E2BIG;
        default:
                return -EBADMSG;
        }
}

/* Feeds input to a block decoder, the output into out.
 * @ret 1 at the end of the block (*consumed says how far), 0 when all input was taken, or <0 */
static int feed(lzma_stream *s, SparseFile *out, const unsigned char *data, size_t size, size_t *consumed) {
        s->next_in = data;
        s->avail_in = size;
        for (;;) {
                void *room;
                size_t room_size;
                lzma_ret l;
                int r;

                r = sparse_file_space(out, &room, &room_size);
                if (r < 0)
                        return r;
                s->next_out = room;
                s->avail_out = room_size;
                l = lzma_code(s, LZMA_RUN);
                sparse_file_commit(out, room_size - s->avail_out);
                *consumed = size - s->avail_in;
                if (l == LZMA_STREAM_END)
                        return 1;
                if (l != LZMA_OK)
                        return lzma_error(l);
                if (s->avail_in == 0 && s->avail_out > 0)
                        return 0;
        }
}

static int start_block_decoder(lzma_stream *s, lzma_block *block) {
        lzma_ret l = lzma_block_decoder(s, block);

        return l == LZMA_OK ? 0 : lzma_error(l);
}

/* ---- workers ---- */

static void chunk_release(XzDecoder *x, Chunk *c) {
        if (c->spilled_at != NOT_SPILLED) {
                x->spilled -= c->size;
                free(c);
                return;
        }
        c->next = x->free_chunks;
        x->free_chunks = c;
}

static int worker_failure(XzDecoder *x) {
        int r;

        pthread_mutex_lock(&x->lock);
        r = x->error;
        pthread_mutex_unlock(&x->lock);
        return r;
}

/* Takes the job's next chunk, NULL once it is all decoded. Waits for input. */
static Chunk *job_next_chunk(XzDecoder *x, Job *j) {
        Chunk *c;

        pthread_mutex_lock(&x->lock);
        while (!j->first && !j->complete && x->error == 0)
                pthread_cond_wait(&x->wake_workers, &x->lock);
        c = x->error == 0 ? j->first : NULL;
        pthread_mutex_unlock(&x->lock);
        return c;
}

static void job_done_with_chunk(XzDecoder *x, Job *j, Chunk *c) {
        pthread_mutex_lock(&x->lock);
        j->first = c->next;
        if (!j->first)
                j->last = NULL;
        chunk_release(x, c);
        pthread_cond_broadcast(&x->wake_reader);
        pthread_mutex_unlock(&x->lock);
}

/* The chunk's bytes: in it, or read back from the spill file into the worker's piece (their place there
 * let go at once: a hole again, in the page cache and on disk, not only when the file is closed). */
static int chunk_bytes(Worker *w, const Chunk *c, const unsigned char **ret) {
        int spill_fd = w->x->spill_fd;
        ssize_t n;

        if (c->spilled_at == NOT_SPILLED) {
                *ret = c->data;
                return 0;
        }
        n = pread(spill_fd, w->spill_piece, c->size, (off_t) c->spilled_at);
        if (n < 0)
                return -errno;
        if ((size_t) n != c->size)
                return -EIO;    /* shorter than what was written */
        (void) fallocate(spill_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) c->spilled_at,
                         (off_t) c->size);
        *ret = w->spill_piece;
        return 0;
}

/* @ret 0 (*ret_zeros: the block decoded to zeros only) or <0 */
static int decode_job(Worker *w, bool *ret_zeros) {
        XzDecoder *x = w->x;
        Job *j = &w->job;
        bool ended = false;
        uint64_t data_before;
        Chunk *c;
        int r;

        r = start_block_decoder(&w->strm, &j->block);
        if (r < 0)
                return r;
        r = sparse_file_seek(w->out, j->offset);
        if (r < 0)
                return r;
        data_before = sparse_file_data_bytes(w->out);
        while ((c = job_next_chunk(x, j))) {
                const unsigned char *bytes = NULL;
                size_t used;

                r = ended ? -EBADMSG : chunk_bytes(w, c, &bytes);
                if (r >= 0)
                        r = feed(&w->strm, w->out, bytes, c->size, &used);
                /* Bytes after the block's end, or a block that ends early: the header lied. */
                if (r == 1 && used != c->size)
                        r = -EBADMSG;
                job_done_with_chunk(x, j, c);
                if (r < 0)
                        return r;
                ended = r == 1;
        }
        if (worker_failure(x) != 0)
                return 0; /* another thread failed; its error is the one to report */
        if (!ended)
                return -EBADMSG;
        r = sparse_file_flush(w->out);
        *ret_zeros = r >= 0 && sparse_file_data_bytes(w->out) == data_before;
        return r;
}

static void job_clear(XzDecoder *x, Job *j) {
        while (j->first) {
                Chunk *c = j->first;
                j->first = c->next;
                chunk_release(x, c);
        }
        j->last = NULL;
        lzma_filters_free(j->filters, NULL);
}

static void *worker_main(void *userdata) {
        Worker *w = userdata;
        XzDecoder *x = w->x;

        pthread_mutex_lock(&x->lock);
        for (;;) {
                int r;

                bool zeros = false;

                while (!w->busy && !x->stopping)
                        pthread_cond_wait(&x->wake_workers, &x->lock);
                if (!w->busy)
                        break;
                pthread_mutex_unlock(&x->lock);
                r = decode_job(w, &zeros);
                /* The dictionary goes back to the budget, not to an idle worker. */
                lzma_end(&w->strm);
                w->strm = (lzma_stream) LZMA_STREAM_INIT;
                pthread_mutex_lock(&x->lock);
                if (r < 0 && x->error == 0)
                        x->error = r;
                if (w->job.repeat_generation != 0 && w->job.repeat_generation == x->repeat.generation)
                        x->repeat.state = r >= 0 && zeros ? REPEAT_ZEROS : REPEAT_DATA;
                job_clear(x, &w->job);
                x->reserved -= w->held;
                w->held = 0;
                w->busy = false;
                pthread_cond_broadcast(&x->wake_reader);
                pthread_cond_broadcast(&x->wake_workers);
        }
        pthread_mutex_unlock(&x->lock);
        return NULL;
}

/* ---- the reading side ---- */

/* An idle worker, once the budget has room for need (reserved for it). Called with the lock held. */
static Worker *wait_idle_worker_locked(XzDecoder *x, uint64_t need) {
        while (x->error == 0) {
                Worker *idle = NULL;

                for (unsigned i = 0; i < x->n_workers && !idle; i++)
                        if (!x->workers[i].busy)
                                idle = &x->workers[i];
                if (idle && x->reserved + need <= x->budget) {
                        x->reserved += need;
                        idle->held = need;
                        return idle;
                }
                pthread_cond_wait(&x->wake_reader, &x->lock);
        }
        return NULL;
}

/* Room for need in the budget, for a block decoded on the reading thread: waits for workers. */
static int reserve_for_reader(XzDecoder *x, uint64_t need) {
        int r;

        pthread_mutex_lock(&x->lock);
        while (x->error == 0 && x->reserved + need > x->budget)
                pthread_cond_wait(&x->wake_reader, &x->lock);
        r = x->error;
        if (r == 0)
                x->reserved += need;
        pthread_mutex_unlock(&x->lock);
        return r;
}

static void release_for_reader(XzDecoder *x, uint64_t need) {
        pthread_mutex_lock(&x->lock);
        x->reserved -= need;
        pthread_mutex_unlock(&x->lock);
}

/* Whether input may still go on into the spill file (the caller holds the lock). */
static bool spilling_locked(const XzDecoder *x) {
        return x->spill_fd >= 0 && x->spill_error == 0;
}

/* A chunk for up to size bytes: from the budget, or else, for bytes from the input (may_spill), a place in
 * the spill file; waits for workers to give either back. NULL if one failed or no memory. */
static Chunk *chunk_get(XzDecoder *x, uint64_t size, bool may_spill) {
        Chunk *c = NULL;

        pthread_mutex_lock(&x->lock);
        while (x->error == 0) {
                if (x->free_chunks) {
                        c = x->free_chunks;
                        x->free_chunks = c->next;
                        c->size = (size_t) MIN(size, (uint64_t) CHUNK_DATA);
                        break;
                }
                if (x->n_chunks < (spilling_locked(x) ? CHUNK_BUDGET_SPILLING : CHUNK_BUDGET)) {
                        c = malloc(offsetof(Chunk, data) + CHUNK_DATA);
                        if (!c)
                                break;
                        x->n_chunks++;
                        c->spilled_at = NOT_SPILLED;
                        c->size = (size_t) MIN(size, (uint64_t) CHUNK_DATA);
                        break;
                }
                if (may_spill && spilling_locked(x) && x->spilled + SPILL_PIECE <= x->spill_max) {
                        c = malloc(sizeof *c);
                        if (!c)
                                break;
                        c->size = (size_t) MIN(size, (uint64_t) SPILL_PIECE);
                        c->spilled_at = x->spill_end;
                        x->spill_end += c->size;
                        x->spilled += c->size;
                        break;
                }
                pthread_cond_wait(&x->wake_reader, &x->lock);
        }
        if (!c && x->error == 0)
                x->error = -ENOMEM;
        pthread_mutex_unlock(&x->lock);
        return c;
}

/* The spilled chunk's bytes, from the input into the spill file. A failed write (a full or failing
 * disk) is -errno with *write_failed set: the bytes before it are in the file and *done says how many. */
static int spill_write(XzDecoder *x, const Chunk *c, size_t *done, bool *write_failed) {
        *done = 0;
        *write_failed = false;
        while (*done < c->size) {
                long n = stream_input_fill(&x->in);
                ssize_t written;

                if (n <= 0)
                        return n < 0 ? (int) n : -EPIPE;
                written = pwrite(x->spill_fd, x->in.buf + x->in.pos, MIN((size_t) n, c->size - *done),
                                 (off_t) (c->spilled_at + *done));
                if (written < 0) {
                        *write_failed = true;
                        return -errno;
                }
                x->in.pos += (size_t) written;
                *done += (size_t) written;
        }
        return 0;
}

/* The spill file could not take the chunk's bytes: it keeps those it took, the reader stops reading
 * ahead and waits for the memory budget it had without a spill file, as a slower pull, not a failed
 * one. It happens once: the error also stops reading ahead (spilling_locked). */
static void spill_give_up(XzDecoder *x, Chunk *c, size_t done, int error) {
        pthread_mutex_lock(&x->lock);
        x->spill_error = error;
        x->spilled -= c->size - done;
        x->spill_end -= c->size - done; /* the last place handed out: nothing comes after it */
        c->size = done;
        pthread_mutex_unlock(&x->lock);
}

/* Queues the next size bytes for the job, chunk by chunk: from memory, or (from NULL) the input. */
static int queue_input(XzDecoder *x, Job *j, const unsigned char *from, uint64_t size) {
        while (size > 0) {
                Chunk *c = chunk_get(x, size, !from);
                int r = 0;

                if (!c)
                        return worker_failure(x);
                c->next = NULL;
                if (c->spilled_at != NOT_SPILLED) {
                        size_t done;
                        bool write_failed;

                        r = spill_write(x, c, &done, &write_failed);
                        if (r < 0 && write_failed) {
                                spill_give_up(x, c, done, r);
                                r = 0;
                        }
                } else if (from) {
                        memcpy(c->data, from, c->size);
                        from += c->size;
                } else
                        r = stream_input_read(&x->in, c->data, c->size);
                pthread_mutex_lock(&x->lock);
                /* A worker that failed meanwhile has dropped its job: nothing may be added to it. */
                if (r >= 0 && x->error != 0)
                        r = x->error;
                if (r < 0 || c->size == 0) /* empty: the spill file failed before taking a byte */
                        chunk_release(x, c);
                else {
                        if (j->last)
                                j->last->next = c;
                        else
                                j->first = c;
                        j->last = c;
                        size -= c->size;
                }
                pthread_cond_broadcast(&x->wake_workers);
                pthread_mutex_unlock(&x->lock);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Hands the block to a worker; its bytes after the header come from body, or the input if NULL. */
static int dispatch_block(XzDecoder *x, const lzma_block *block, uint64_t need, const unsigned char *body,
                          unsigned repeat_generation) {
        Worker *w;
        Job *j;
        int r;

        pthread_mutex_lock(&x->lock);
        w = wait_idle_worker_locked(x, need);
        if (!w) {
                r = x->error;
                pthread_mutex_unlock(&x->lock);
                return r;
        }
        j = &w->job;
        *j = (Job) { .block = *block, .offset = x->offset, .repeat_generation = repeat_generation };
        memcpy(j->filters, block->filters, sizeof j->filters);
        j->block.filters = j->filters;
        w->busy = true;
        pthread_cond_broadcast(&x->wake_workers);
        pthread_mutex_unlock(&x->lock);

        /* The worker owns the filter options now. */
        block->filters[0] = (lzma_filter) { .id = LZMA_VLI_UNKNOWN };
        r = queue_input(x, j, body, lzma_block_total_size(block) - block->header_size);

        pthread_mutex_lock(&x->lock);
        j->complete = true;
        pthread_cond_broadcast(&x->wake_workers);
        pthread_mutex_unlock(&x->lock);
        return r;
}

/* Forgets the kept block (a new stream may have another check type); a worker still decoding it
 * no longer reports to it. */
static void repeat_forget(XzDecoder *x) {
        pthread_mutex_lock(&x->lock);
        x->repeat.generation++;
        x->repeat.state = REPEAT_NONE;
        pthread_mutex_unlock(&x->lock);
        x->repeat.size = 0;
}

/* Keeps a block about to be handed out. @ret the generation its job reports to */
static unsigned repeat_keep(XzDecoder *x, const unsigned char *bytes, size_t size) {
        unsigned generation;

        memcpy(x->repeat.bytes, bytes, size);
        x->repeat.size = size;
        pthread_mutex_lock(&x->lock);
        if (++x->repeat.generation == 0)
                x->repeat.generation = 1;
        x->repeat.state = REPEAT_PENDING;
        generation = x->repeat.generation;
        pthread_mutex_unlock(&x->lock);
        return generation;
}

/* What became of the kept block if bytes repeat it (waiting for its worker): REPEAT_ZEROS or REPEAT_DATA;
 * REPEAT_NONE if they do not repeat it, or a worker failed (its error stops the stream). */
static RepeatState repeat_lookup(XzDecoder *x, const unsigned char *bytes, size_t size) {
        RepeatState state;

        /* Only this thread writes the kept bytes; the workers write the state. */
        if (x->repeat.size != size || memcmp(x->repeat.bytes, bytes, size) != 0)
                return REPEAT_NONE;
        pthread_mutex_lock(&x->lock);
        while (x->repeat.state == REPEAT_PENDING && x->error == 0)
                pthread_cond_wait(&x->wake_reader, &x->lock);
        state = x->error == 0 ? x->repeat.state : REPEAT_NONE;
        pthread_mutex_unlock(&x->lock);
        return state;
}

/* A sized block of at most REPEAT_MAX bytes: a hole if it repeats a block of zeros, else handed out
 * from memory (and kept, unless it repeats the kept one). */
static int small_block(XzDecoder *x, const lzma_block *block, const uint8_t *header, uint64_t need) {
        size_t size = (size_t) lzma_block_total_size(block);
        unsigned generation = 0;
        RepeatState state;
        int r;

        memcpy(x->small, header, block->header_size);
        r = stream_input_read(&x->in, x->small + block->header_size, size - block->header_size);
        if (r < 0)
                return r;
        state = repeat_lookup(x, x->small, size);
        if (state == REPEAT_ZEROS) {
                x->skipped += block->uncompressed_size;
                return 0;
        }
        if (state == REPEAT_NONE)
                generation = repeat_keep(x, x->small, size);
        return dispatch_block(x, block, need, x->small + block->header_size, generation);
}

/* Decodes a block from the reading side's input, in order. */
static int decode_serially(XzDecoder *x, lzma_block *block) {
        int r;

        r = start_block_decoder(&x->serial, block);
        if (r < 0)
                return r;
        r = sparse_file_seek(x->out, x->offset);
        if (r < 0)
                return r;
        for (;;) {
                long n = stream_input_fill(&x->in);
                size_t used;

                if (n <= 0)
                        return n < 0 ? (int) n : -EPIPE;
                r = feed(&x->serial, x->out, x->in.buf + x->in.pos, (size_t) n, &used);
                x->in.pos += used;
                if (r < 0)
                        return r;
                if (r == 1)
                        break;
        }
        /* The decoder filled in the sizes. */
        return sparse_file_flush(x->out);
}

/* A block whose size is known only at its end: decoded here, in order. */
static int decode_block_here(XzDecoder *x, lzma_block *block, uint64_t need) {
        int r;

        r = reserve_for_reader(x, need);
        if (r < 0)
                return r;
        r = decode_serially(x, block);
        lzma_end(&x->serial);
        x->serial = (lzma_stream) LZMA_STREAM_INIT;
        release_for_reader(x, need);
        return r;
}

static int read_block(XzDecoder *x, uint8_t first_byte) {
        lzma_filter filters[LZMA_FILTERS_MAX + 1] = {};
        uint8_t header[LZMA_BLOCK_HEADER_SIZE_MAX];
        lzma_block block = {
                .version = 1,
                .check = x->flags.check,
                .filters = filters,
                .header_size = lzma_block_header_size_decode(first_byte),
        };
        uint64_t need;
        bool sized;
        lzma_ret l;
        int r;

        header[0] = first_byte;
        r = stream_input_read(&x->in, header + 1, block.header_size - 1);
        if (r < 0)
                return r;
        l = lzma_block_header_decode(&block, NULL, header);
        if (l != LZMA_OK)
                return -EBADMSG;
        /* Known from the header alone, before anything is allocated for the block. */
        need = lzma_raw_decoder_memusage(filters);
        if (need == UINT64_MAX || need > x->budget) {
                lzma_filters_free(filters, NULL);
                if (need == UINT64_MAX)
                        return -EBADMSG;
                x->needed = need;
                return -E2BIG;
        }

        sized = block.compressed_size != LZMA_VLI_UNKNOWN && block.uncompressed_size != LZMA_VLI_UNKNOWN &&
                lzma_block_total_size(&block) != 0 && x->n_workers > 0;
        if (sized && lzma_block_total_size(&block) <= REPEAT_MAX)
                r = small_block(x, &block, header, need);
        else if (sized)
                r = dispatch_block(x, &block, need, NULL, 0);
        else
                r = decode_block_here(x, &block, need);
        lzma_filters_free(filters, NULL);
        if (r < 0)
                return r;

        if (block.uncompressed_size > (uint64_t) INT64_MAX - x->offset)
                return -EBADMSG;
        x->offset += block.uncompressed_size;
        /* The index at the stream's end must list exactly these blocks. */
        l = lzma_index_hash_append(x->index, lzma_block_unpadded_size(&block), block.uncompressed_size);
        return l == LZMA_OK ? 0 : -EBADMSG;
}

static int read_index(XzDecoder *x) {
        for (;;) {
                long n = stream_input_fill(&x->in);
                lzma_ret l;

                if (n <= 0)
                        return n < 0 ? (int) n : -EPIPE;
                l = lzma_index_hash_decode(x->index, x->in.buf, &x->in.pos, x->in.end);
                if (l == LZMA_STREAM_END)
                        return 0;
                if (l != LZMA_OK)
                        return -EBADMSG;
        }
}

static int read_footer(XzDecoder *x) {
        uint8_t raw[LZMA_STREAM_HEADER_SIZE];
        lzma_stream_flags footer;
        int r;

        r = stream_input_read(&x->in, raw, sizeof raw);
        if (r < 0)
                return r;
        if (lzma_stream_footer_decode(&footer, raw) != LZMA_OK ||
            lzma_stream_flags_compare(&x->flags, &footer) != LZMA_OK ||
            footer.backward_size != lzma_index_hash_size(x->index))
                return -EBADMSG;
        return 0;
}

/* One stream from its header (the first 'have' bytes of which are in raw) to its footer. */
static int read_stream(XzDecoder *x, uint8_t raw[static LZMA_STREAM_HEADER_SIZE], size_t have) {
        int r;

        r = stream_input_read(&x->in, raw + have, LZMA_STREAM_HEADER_SIZE - have);
        if (r < 0)
                return r;
        if (lzma_stream_header_decode(&x->flags, raw) != LZMA_OK)
                return -EBADMSG;
        repeat_forget(x);
        lzma_index_hash_end(x->index, NULL);
        x->index = lzma_index_hash_init(NULL, NULL);
        if (!x->index)
                return -ENOMEM;

        for (;;) {
                uint8_t b;

                r = stream_input_read(&x->in, &b, 1);
                if (r < 0)
                        return r;
                if (b == 0)
                        break; /* the index indicator */
                r = read_block(x, b);
                if (r < 0)
                        return r;
        }
        x->in.pos--; /* the index decoder wants its indicator byte too */
        r = read_index(x);
        if (r < 0)
                return r;
        return read_footer(x);
}

/* After a stream: padding (zeros, in fours), then the end or another stream. */
static int read_streams(XzDecoder *x) {
        uint8_t raw[LZMA_STREAM_HEADER_SIZE];
        int r;

        r = read_stream(x, raw, 0);
        while (r >= 0) {
                long n = stream_input_fill(&x->in);

                if (n <= 0)
                        return (int) n;
                r = stream_input_read(&x->in, raw, 4);
                if (r < 0)
                        return r == -EPIPE ? -EBADMSG : r; /* padding must come in fours */
                if (memcmp(raw, "\0\0\0\0", 4) != 0)
                        r = read_stream(x, raw, 4);
        }
        return r;
}

/* ---- setting up and tearing down ---- */

/* A file without a name in dir, gone when closed. Without one (a file system that has no O_TMPFILE), the
 * reader waits for the chunk budget as before: @ret -1. */
static int spill_open(int dir_fd) {
        int fd = openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

        return fd >= 0 ? fd : -1;
}

static int start_workers(XzDecoder *x, unsigned n, Flusher *flusher) {
        x->workers = calloc(n, sizeof *x->workers);
        if (!x->workers)
                return -ENOMEM;
        x->n_workers = n;
        for (unsigned i = 0; i < n; i++) {
                Worker *w = &x->workers[i];
                int r;

                w->x = x;
                w->strm = (lzma_stream) LZMA_STREAM_INIT;
                r = sparse_file_new(x->fd, OUTPUT_BUFFER, &w->out);
                if (r < 0)
                        return r;
                sparse_file_set_flusher(w->out, flusher);
                if (x->spill_fd >= 0) {
                        w->spill_piece = malloc(SPILL_PIECE);
                        if (!w->spill_piece)
                                return -ENOMEM;
                }
                if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
                        return -EAGAIN;
                x->n_started++;
        }
        return 0;
}

/* Waits for the workers to finish their blocks (all of them, or stop at once after a failure). */
static void stop_workers(XzDecoder *x, int failure) {
        pthread_mutex_lock(&x->lock);
        if (failure < 0 && x->error == 0)
                x->error = failure;
        x->stopping = true;
        pthread_cond_broadcast(&x->wake_workers);
        pthread_mutex_unlock(&x->lock);
        for (unsigned i = 0; i < x->n_started; i++)
                pthread_join(x->workers[i].thread, NULL);
        for (unsigned i = 0; i < x->n_workers; i++) {
                lzma_end(&x->workers[i].strm);
                sparse_file_free(x->workers[i].out);
                free(x->workers[i].spill_piece);
        }
        free(x->workers);
        while (x->free_chunks) {
                Chunk *c = x->free_chunks;
                x->free_chunks = c->next;
                free(c);
        }
}

int xz_decode_to_file(int fd, const XzDecodeOptions *o, XzDecodeResult *ret) {
        XzDecoder *x = calloc(1, sizeof *x);
        int r;

        assert(fd >= 0);
        assert(o);
        assert(o->read);
        assert(ret);

        if (!x)
                return -ENOMEM;
        x->fd = fd;
        x->in = (StreamInput) { .prefix = o->prefix, .prefix_left = o->prefix_size, .read = o->read,
                          .userdata = o->userdata };
        x->serial = (lzma_stream) LZMA_STREAM_INIT;
        x->budget = o->memory_budget ?: XZ_MEMORY_BUDGET_DEFAULT;
        *ret = (XzDecodeResult) {};
        pthread_mutex_init(&x->lock, NULL);
        pthread_cond_init(&x->wake_workers, NULL);
        pthread_cond_init(&x->wake_reader, NULL);

        x->spill_fd = -1;
        if (o->spill_max > 0 && o->threads > 1)
                x->spill_fd = spill_open(o->spill_dir_fd);
        x->spill_max = o->spill_max;
        r = sparse_file_new(fd, OUTPUT_BUFFER, &x->out);
        if (r >= 0)
                sparse_file_set_flusher(x->out, o->flusher);
        if (r >= 0 && o->threads > 1)
                r = start_workers(x, o->threads, o->flusher);
        if (r >= 0)
                r = read_streams(x);
        stop_workers(x, r);
        if (r >= 0)
                r = x->error;
        if (r >= 0)
                r = sparse_file_seek(x->out, x->offset);
        if (r >= 0)
                r = sparse_file_finish(x->out);
        if (r >= 0) {
                ret->size = x->offset;
                ret->skipped = x->skipped;
                ret->spilled = x->spill_end;
                ret->spill_error = x->spill_error;
        }
        if (r == -E2BIG)
                ret->memory_needed = x->needed;

        sparse_file_free(x->out);
        lzma_end(&x->serial);
        lzma_index_hash_end(x->index, NULL);
        if (x->spill_fd >= 0)
                (void) close(x->spill_fd);
        pthread_cond_destroy(&x->wake_workers);
        pthread_cond_destroy(&x->wake_reader);
        pthread_mutex_destroy(&x->lock);
        free(x);
        return r;
}
