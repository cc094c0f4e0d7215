/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Streaming decompression of zstd, gzip and bzip2 (xz: xz-parallel.c).
 */
#include <bzlib.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "decompress.h"
#include "macro.h"

#define OUT_CHUNK (256 * 1024)

struct Decompressor {
        Compression type;
        bool ended;             /* the current stream/member reached its end marker */
        bool started;           /* input of the current member was seen */
        unsigned char *out;
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

static int init_stream(Decompressor *d) {
        switch (d->type) {
        case COMPRESSION_ZSTD:
                d->zstd = ZSTD_createDStream();
                return d->zstd ? 0 : -ENOMEM;
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

int decompressor_new(Compression c, Decompressor **ret) {
        Decompressor *d;
        int r;

        if (c == COMPRESSION_XZ || c >= _COMPRESSION_MAX)
                return -EOPNOTSUPP;
        d = calloc(1, sizeof *d);
        if (!d)
                return -ENOMEM;
        d->type = c;
        d->out = malloc(OUT_CHUNK);
        if (!d->out) {
                free(d);
                return -ENOMEM;
        }
        r = init_stream(d);
        if (r < 0) {
                free(d->out);
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
        free(d->out);
        free(d);
}

static int push_zstd(Decompressor *d, const void *data, size_t size, decompress_sink_t sink, void *userdata) {
        ZSTD_inBuffer in = { data, size, 0 };

        while (in.pos < in.size) {
                ZSTD_outBuffer out = { d->out, OUT_CHUNK, 0 };
                size_t z = ZSTD_decompressStream(d->zstd, &out, &in);
                int r;

                if (ZSTD_isError(z))
                        return -EBADMSG;
                if (out.pos > 0) {
                        r = sink(d->out, out.pos, userdata);
                        if (r < 0)
                                return r;
                }
                /* 0 means a frame is complete; the next bytes may start another one. */
                d->ended = z == 0;
        }
        /* Drain output the decoder still holds for the input it has. */
        for (;;) {
                ZSTD_outBuffer out = { d->out, OUT_CHUNK, 0 };
                size_t z = ZSTD_decompressStream(d->zstd, &out, &in);
                int r;

                if (ZSTD_isError(z))
                        return -EBADMSG;
                if (out.pos == 0)
                        break;
                r = sink(d->out, out.pos, userdata);
                if (r < 0)
                        return r;
                d->ended = z == 0;
        }
        return 0;
}

static int push_gzip(Decompressor *d, const void *data, size_t size, decompress_sink_t sink, void *userdata) {
        d->gz.next_in = (Bytef *) data;
        d->gz.avail_in = (uInt) size;
        while (d->gz.avail_in > 0) {
                int z, r;

                d->gz.next_out = d->out;
                d->gz.avail_out = OUT_CHUNK;
                z = inflate(&d->gz, Z_NO_FLUSH);
                if (OUT_CHUNK - d->gz.avail_out > 0) {
                        r = sink(d->out, OUT_CHUNK - d->gz.avail_out, userdata);
                        if (r < 0)
                                return r;
                }
                if (z == Z_STREAM_END) {
                        d->ended = true;
                        /* Another member may follow (as "cat a.gz b.gz" makes). */
                        if (d->gz.avail_in > 0 && inflateReset(&d->gz) != Z_OK)
                                return -EBADMSG;
                        if (d->gz.avail_in > 0)
                                d->ended = false;
                        continue;
                }
                if (z == Z_BUF_ERROR && d->gz.avail_in == 0)
                        break;
                if (z != Z_OK)
                        return z == Z_MEM_ERROR ? -ENOMEM : -EBADMSG;
                d->ended = false;
        }
        return 0;
}

static int push_bzip2(Decompressor *d, const void *data, size_t size, decompress_sink_t sink, void *userdata) {
        d->bz.next_in = (char *) data;
        d->bz.avail_in = (unsigned) size;
        while (d->bz.avail_in > 0) {
                int z, r;

                d->bz.next_out = (char *) d->out;
                d->bz.avail_out = OUT_CHUNK;
                z = BZ2_bzDecompress(&d->bz);
                if (OUT_CHUNK - d->bz.avail_out > 0) {
                        r = sink(d->out, OUT_CHUNK - d->bz.avail_out, userdata);
                        if (r < 0)
                                return r;
                }
                if (z == BZ_STREAM_END) {
                        d->ended = true;
                        if (d->bz.avail_in > 0) {
                                /* A concatenated stream: start over on the rest. */
                                char *rest = d->bz.next_in;
                                unsigned left = d->bz.avail_in;
                                BZ2_bzDecompressEnd(&d->bz);
                                d->bz = (bz_stream) {};
                                if (BZ2_bzDecompressInit(&d->bz, 0, 0) != BZ_OK)
                                        return -ENOMEM;
                                d->bz.next_in = rest;
                                d->bz.avail_in = left;
                                d->ended = false;
                        }
                        continue;
                }
                if (z != BZ_OK)
                        return z == BZ_MEM_ERROR ? -ENOMEM : -EBADMSG;
                d->ended = false;
        }
        return 0;
}

int decompressor_push(Decompressor *d, const void *data, size_t size, decompress_sink_t sink, void *userdata) {
        if (size == 0)
                return 0;
        d->started = true;
        switch (d->type) {
        case COMPRESSION_ZSTD:
                return push_zstd(d, data, size, sink, userdata);
        case COMPRESSION_GZIP:
                if (d->ended && inflateReset(&d->gz) != Z_OK)
                        return -EBADMSG;
                d->ended = false;
                return push_gzip(d, data, size, sink, userdata);
        case COMPRESSION_BZIP2:
                if (d->ended) {
                        BZ2_bzDecompressEnd(&d->bz);
                        d->bz = (bz_stream) {};
                        if (BZ2_bzDecompressInit(&d->bz, 0, 0) != BZ_OK)
                                return -ENOMEM;
                        d->ended = false;
                }
                return push_bzip2(d, data, size, sink, userdata);
        default:
                return sink(data, size, userdata);
        }
}

int decompressor_finish(Decompressor *d, decompress_sink_t sink, void *userdata) {
        switch (d->type) {
        case COMPRESSION_NONE:
                return 0;
        default:
                return d->ended ? 0 : -EPIPE;
        }
}
