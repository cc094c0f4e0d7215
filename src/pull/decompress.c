/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Streaming decompression of zstd, gzip and bzip2 (xz: xz-parallel.c).
 */
#include <assert.h>
#include <bzlib.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>
#include <lzma.h>

#include "decompress.h"
#include "macro.h"

/* xz for tarballs without a budget of their own: two xz -9 dictionaries' worth. */
#define XZ_STREAM_MEMLIMIT_DEFAULT (UINT64_C(256) << 20)

struct Decompressor {
        Compression type;
        bool ended;             /* the current stream/member reached its end marker */
        bool started;           /* input of the current member was seen */
        union {
                ZSTD_DStream *zstd;
                z_stream gz;
                bz_stream bz;
                lzma_stream xz;
        };
};

static int sparse_space(void *userdata, void **ret, size_t *ret_size) {
        return sparse_file_space(userdata, ret, ret_size);
}

static int sparse_commit(void *userdata, size_t size) {
        sparse_file_commit(userdata, size);
        return 0;
}

DecodeSink decode_sink_sparse_file(SparseFile *f) {
        return (DecodeSink) { .space = sparse_space, .commit = sparse_commit, .userdata = f };
}

Compression compression_detect(const void *head, size_t size) {
        const unsigned char *p = head;

        assert(head || size == 0);

        if (size >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
                return COMPRESSION_XZ;
        if (size >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
                return COMPRESSION_ZSTD;
        if (size >= 2 && p[0] == 0x1f && p[1] == 0x8b)
                return COMPRESSION_GZIP;
        if (size >= 3 && memcmp(p, "BZh", 3) == 0)
                return COMPRESSION_BZIP2;
        return COMPRESSION_NONE;
}

const char *compression_to_string(Compression c) {
        static const char *const names[_COMPRESSION_MAX] = { "none", "xz", "zstd", "gzip", "bzip2" };

        return c < _COMPRESSION_MAX ? names[c] : NULL;
}

/* zstd's window sizes: 1 KiB to 2 GiB (its public header keeps these in the static-only part). */
#define ZSTD_WINDOW_LOG_MIN 10
#define ZSTD_WINDOW_LOG_MAX 31

/* The largest zstd window (a power of two) within budget. */
static int zstd_window_log(uint64_t budget) {
        int log = ZSTD_WINDOW_LOG_MIN;

        while (log < ZSTD_WINDOW_LOG_MAX && (UINT64_C(1) << (log + 1)) <= budget)
                log++;
        return log;
}

static int init_stream(Decompressor *d, uint64_t memory_budget) {
        switch (d->type) {
        case COMPRESSION_ZSTD:
                d->zstd = ZSTD_createDStream();
                if (!d->zstd)
                        return -ENOMEM;
                if (memory_budget > 0 &&
                    ZSTD_isError(ZSTD_DCtx_setParameter(d->zstd, ZSTD_d_windowLogMax, zstd_window_log(memory_budget))))
                        return -EINVAL;
                return 0;
        case COMPRESSION_GZIP:
                d->gz = (z_stream) {};
                /* 15 + 16: gzip only, largest window */
                return inflateInit2(&d->gz, 15 + 16) == Z_OK ? 0 : -ENOMEM;
        case COMPRESSION_BZIP2:
                d->bz = (bz_stream) {};
                return BZ2_bzDecompressInit(&d->bz, 0, 0) == BZ_OK ? 0 : -ENOMEM;
        case COMPRESSION_XZ:
                d->xz = (lzma_stream) LZMA_STREAM_INIT;
                /* liblzma refuses (LZMA_MEMLIMIT_ERROR) a stream needing more, before allocating it. */
                return lzma_stream_decoder(&d->xz, memory_budget ?: XZ_STREAM_MEMLIMIT_DEFAULT, LZMA_CONCATENATED) ==
                       LZMA_OK ? 0 : -ENOMEM;
        default:
                return 0;
        }
}

int decompressor_new(Compression c, uint64_t memory_budget, Decompressor **ret) {
        Decompressor *d;
        int r;

        assert(ret);

        if (c >= _COMPRESSION_MAX)
                return -EOPNOTSUPP;
        d = calloc(1, sizeof *d);
        if (!d)
                return -ENOMEM;
        d->type = c;
        r = init_stream(d, memory_budget);
        if (r < 0) {
                free(d);
                return r;
        }
        *ret = d;
        return 0;
}

void decompressor_free(Decompressor *d) {
        if (!d)
                return;
        switch (d->type) {
        case COMPRESSION_ZSTD:
                ZSTD_freeDStream(d->zstd);
                break;
        case COMPRESSION_GZIP:
                inflateEnd(&d->gz);
                break;
        case COMPRESSION_BZIP2:
                BZ2_bzDecompressEnd(&d->bz);
                break;
        case COMPRESSION_XZ:
                lzma_end(&d->xz);
                break;
        default:
                break;
        }
        free(d);
}

/* Room in out for the decoder to write into, at most limit bytes (the library's counter type). */
static int output_room(const DecodeSink *out, size_t limit, void **ret, size_t *ret_size) {
        int r = out->space(out->userdata, ret, ret_size);

        if (r >= 0)
                *ret_size = MIN(*ret_size, limit);
        return r;
}

static int push_zstd(Decompressor *d, const void *data, size_t size, const DecodeSink *out) {
        ZSTD_inBuffer in = { data, size, 0 };

        for (;;) {
                ZSTD_outBuffer o;
                size_t z, in_before = in.pos;
                int r = output_room(out, SIZE_MAX, &o.dst, &o.size);

                if (r < 0)
                        return r;
                o.pos = 0;
                z = ZSTD_decompressStream(d->zstd, &o, &in);
                if (ZSTD_isError(z))
                        return ZSTD_getErrorCode(z) == ZSTD_error_frameParameter_windowTooLarge ? -E2BIG : -EBADMSG;
                r = out->commit(out->userdata, o.pos);
                if (r < 0)
                        return r;
                /* 0 means a frame is complete; the next bytes may start another one. A call that
                 * neither read nor wrote says nothing new (after a frame it hints at the next). */
                if (o.pos > 0 || in.pos > in_before)
                        d->ended = z == 0;
                /* Room left over with all input read: the decoder holds nothing more for now. */
                if (in.pos == in.size && o.pos < o.size)
                        return 0;
        }
}

static int push_gzip(Decompressor *d, const void *data, size_t size, const DecodeSink *out) {
        d->gz.next_in = (Bytef *) data;
        d->gz.avail_in = (uInt) size;
        for (;;) {
                void *room;
                size_t room_size;
                int z, r;

                r = output_room(out, UINT_MAX, &room, &room_size);
                if (r < 0)
                        return r;
                d->gz.next_out = room;
                d->gz.avail_out = (uInt) room_size;
                z = inflate(&d->gz, Z_NO_FLUSH);
                r = out->commit(out->userdata, room_size - d->gz.avail_out);
                if (r < 0)
                        return r;
                if (z == Z_STREAM_END) {
                        d->ended = true;
                        if (d->gz.avail_in == 0)
                                return 0;
                        /* Another member follows (as "cat a.gz b.gz" makes). */
                        if (inflateReset(&d->gz) != Z_OK)
                                return -EBADMSG;
                        d->ended = false;
                        continue;
                }
                /* No progress possible: all input used and all output given. */
                if (z == Z_BUF_ERROR && d->gz.avail_in == 0)
                        return 0;
                if (z != Z_OK)
                        return z == Z_MEM_ERROR ? -ENOMEM : -EBADMSG;
                d->ended = false;
                if (d->gz.avail_in == 0 && d->gz.avail_out > 0)
                        return 0;
        }
}

/* A new stream (concatenated ones are allowed): start over on the rest of the input. */
static int restart_bzip2(Decompressor *d) {
        char *rest = d->bz.next_in;
        unsigned left = d->bz.avail_in;

        BZ2_bzDecompressEnd(&d->bz);
        d->bz = (bz_stream) {};
        if (BZ2_bzDecompressInit(&d->bz, 0, 0) != BZ_OK)
                return -ENOMEM;
        d->bz.next_in = rest;
        d->bz.avail_in = left;
        d->ended = false;
        return 0;
}

static int push_bzip2(Decompressor *d, const void *data, size_t size, const DecodeSink *out) {
        d->bz.next_in = (char *) data;
        d->bz.avail_in = (unsigned) size;
        for (;;) {
                void *room;
                size_t room_size;
                int z, r;

                r = output_room(out, UINT_MAX, &room, &room_size);
                if (r < 0)
                        return r;
                d->bz.next_out = room;
                d->bz.avail_out = (unsigned) room_size;
                z = BZ2_bzDecompress(&d->bz);
                r = out->commit(out->userdata, room_size - d->bz.avail_out);
                if (r < 0)
                        return r;
                if (z == BZ_STREAM_END) {
                        d->ended = true;
                        if (d->bz.avail_in == 0)
                                return 0;
                        r = restart_bzip2(d);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (z != BZ_OK)
                        return z == BZ_MEM_ERROR ? -ENOMEM : -EBADMSG;
                d->ended = false;
                if (d->bz.avail_in == 0 && d->bz.avail_out > 0)
                        return 0;
        }
}

static int push_xz(Decompressor *d, const void *data, size_t size, const DecodeSink *out) {
        d->xz.next_in = data;
        d->xz.avail_in = size;
        for (;;) {
                void *room;
                size_t room_size;
                lzma_ret l;
                int r;

                r = output_room(out, SIZE_MAX, &room, &room_size);
                if (r < 0)
                        return r;
                d->xz.next_out = room;
                d->xz.avail_out = room_size;
                l = lzma_code(&d->xz, LZMA_RUN);
                r = out->commit(out->userdata, room_size - d->xz.avail_out);
                if (r < 0)
                        return r;
                if (l == LZMA_MEMLIMIT_ERROR)
                        return -E2BIG;
                if (l == LZMA_MEM_ERROR)
                        return -ENOMEM;
                if (l != LZMA_OK && l != LZMA_BUF_ERROR)
                        return -EBADMSG;
                if (d->xz.avail_in == 0 && d->xz.avail_out > 0)
                        return 0;
        }
}

/* No compression: the bytes as they are, in pieces as large as the sink's room. */
static int copy_to(const DecodeSink *out, const void *data, size_t size) {
        const uint8_t *p = data;

        while (size > 0) {
                void *room;
                size_t n;
                int r = out->space(out->userdata, &room, &n);

                if (r < 0)
                        return r;
                n = MIN(n, size);
                memcpy(room, p, n);
                r = out->commit(out->userdata, n);
                if (r < 0)
                        return r;
                p += n;
                size -= n;
        }
        return 0;
}

int decompressor_push(Decompressor *d, const void *data, size_t size, const DecodeSink *out) {
        assert(d);
        assert(data || size == 0);
        assert(out);

        if (size == 0)
                return 0;
        d->started = true;
        switch (d->type) {
        case COMPRESSION_ZSTD:
                return push_zstd(d, data, size, out);
        case COMPRESSION_GZIP:
                if (d->ended && inflateReset(&d->gz) != Z_OK)
                        return -EBADMSG;
                d->ended = false;
                return push_gzip(d, data, size, out);
        case COMPRESSION_BZIP2:
                if (d->ended) {
                        int r = restart_bzip2(d);
                        if (r < 0)
                                return r;
                }
                return push_bzip2(d, data, size, out);
        case COMPRESSION_XZ:
                return push_xz(d, data, size, out);
        default:
                return copy_to(out, data, size);
        }
}

/* LZMA_CONCATENATED: only LZMA_FINISH says whether the last stream was complete. */
static int finish_xz(Decompressor *d) {
        lzma_ret l;

        d->xz.next_in = NULL;
        d->xz.avail_in = 0;
        d->xz.next_out = (uint8_t[1]) {};
        d->xz.avail_out = 1;
        l = lzma_code(&d->xz, LZMA_FINISH);
        if (l == LZMA_STREAM_END && d->xz.avail_out == 1)
                return 0;
        return l == LZMA_BUF_ERROR || l == LZMA_OK ? -EPIPE : -EBADMSG;
}

int decompressor_finish(Decompressor *d) {
        assert(d);

        if (d->type == COMPRESSION_XZ)
                return d->started ? finish_xz(d) : -EPIPE;
        return d->type == COMPRESSION_NONE || d->ended ? 0 : -EPIPE;
}
