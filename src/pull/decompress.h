/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Streaming decompression of zstd, gzip, bzip2 and xz, detected by magic bytes (raw images in xz go
 * to xz-parallel.c, which decodes several blocks at once; the xz decoder here serves tarballs; raw
 * images in zstd frames that state their sizes go to zstd-parallel.c).
 *
 * Input arrives in arbitrary pieces; output is decoded straight into the room a sink offers (for
 * raw images a SparseFile's buffer: no copy between decoder and file, a 1 GiB image would cost
 * 1 GiB of memcpy). A stream
 * that ends before its format says it is complete is an error, so a truncated download of a
 * compressed image never passes as a shorter image. Concatenated streams/members are accepted.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "sparse-file.h"

typedef enum Compression {
        COMPRESSION_NONE,
        COMPRESSION_XZ,
        COMPRESSION_ZSTD,
        COMPRESSION_GZIP,
        COMPRESSION_BZIP2,
        _COMPRESSION_MAX,
} Compression;

/** Bytes compression_detect() wants to see (fewer is fine at the end of a short file). */
#define COMPRESSION_MAGIC_MAX 6

Compression compression_detect(const void *head, size_t size);
const char *compression_to_string(Compression c);

typedef struct Decompressor Decompressor;

/** Where decoded bytes go: room to decode into (at least one byte), then how much of it was filled. */
typedef struct DecodeSink {
        int (*space)(void *userdata, void **ret, size_t *ret_size);
        int (*commit)(void *userdata, size_t size);
        void *userdata;
} DecodeSink;

/** A sink that appends to f, decoding straight into its buffer. */
DecodeSink decode_sink_sparse_file(SparseFile *f);

/**
 * A decoder for zstd, gzip, bzip2, xz or none (a copy).
 * @v memory_budget  bytes the decoder may use (zstd's window, xz's dictionary; gzip and bzip2 need
 *                   little): 0 for the defaults (zstd: 128 MiB, xz: 256 MiB)
 */
int decompressor_new(Compression c, uint64_t memory_budget, Decompressor **ret);
void decompressor_free(Decompressor *d);

/**
 * Feed input; output goes to out.
 * @ret 0, -EBADMSG for corrupt data, -E2BIG for a zstd window or xz dictionary over the budget, or
 *      out's error
 */
int decompressor_push(Decompressor *d, const void *data, size_t size, const DecodeSink *out);

/** Input ended. @ret 0, or -EPIPE if the compressed stream is incomplete. */
int decompressor_finish(Decompressor *d);
