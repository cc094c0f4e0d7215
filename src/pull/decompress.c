/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Streaming decompression of zstd, gzip and bzip2 (xz: xz-parallel.c).
 */
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

#include "decompress.h"
#include "macro.h"

struct Decompressor {
        Compression type;
        bool ended;             /* the current stream/member reached its end marker */
        bool started;           /* input of the current member was seen */
        union {
                ZSTD_DStream *zstd;
                z_stream gz;
                bz_stream bz;
        };
};

Compression compression_detect(const void *head, size_t size) {
        const unsigned char *p = head;

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
        default:
                return 0;
        }
}

int decompressor_new(Compression c, uint64_t memory_budget, Decompressor **ret) {
        Decompressor *d;
        int r;

        if (c == COMPRESSION_XZ || c >= _COMPRESSION_MAX)
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
        default:
                break;
        }
        free(d);
}

/* Room in out for the decoder to write into, at most limit bytes (the library's counter type). */
static int output_room(SparseFile *out, size_t limit, void **ret, size_t *ret_size) {
        int r = sparse_file_space(out, ret, ret_size);

        if (r >= 0)
                *ret_size = MIN(*ret_size, limit);
        return r;
}

static int push_zstd(Decompressor *d, const void *data, size_t size, SparseFile *out) {
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
                sparse_file_commit(out, o.pos);
                /* 0 means a frame is complete; the next bytes may start another one. A call that
                 * neither read nor wrote says nothing new (after a frame it hints at the next). */
                if (o.pos > 0 || in.pos > in_before)
                        d->ended = z == 0;
                /* Room left over with all input read: the decoder holds nothing more for now. */
                if (in.pos == in.size && o.pos < o.size)
                        return 0;
        }
}

static int push_gzip(Decompressor *d, const void *data, size_t size, SparseFile *out) {
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
                sparse_file_commit(out, room_size - d->gz.avail_out);
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

static int push_bzip2(Decompressor *d, const void *data, size_t size, SparseFile *out) {
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
                sparse_file_commit(out, room_size - d->bz.avail_out);
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

int decompressor_push(Decompressor *d, const void *data, size_t size, SparseFile *out) {
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
        default:
                return sparse_file_write(out, data, size);
        }
}

int decompressor_finish(Decompressor *d) {
        return d->type == COMPRESSION_NONE || d->ended ? 0 : -EPIPE;
}
