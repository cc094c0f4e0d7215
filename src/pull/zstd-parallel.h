/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Decoding a multi-frame .zst into a new file, several frames at a time, in little memory.
 *
 * `zstd -T2` writes one frame, which only one thread can decode. A seekable .zst (`urlboot-lazy
 * compress`, zstd-image.h) is many independent frames of 1 MiB, each stating its content size, so
 * where its output goes in the file is known before it is decoded. The reading thread parses the
 * framing (RFC 8878) as the bytes arrive, gathers each frame whole and hands it to a worker, which
 * decodes it in one call and writes it at its offset, zeros left as holes. Memory: the frames in
 * flight (compressed and decoded), which stay within a budget and a few per worker.
 *
 * A frame that does not state its size, or is too large for the budget, is decoded by the reading
 * thread with zstd's streaming decoder, in order. When the first frame is such a frame (the usual
 * single-frame file), zstd_parallel_applies() says so and the caller keeps its streaming decoder.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flusher.h"
#include "stream-input.h"

typedef stream_read_t zstd_read_t;

typedef struct ZstdDecodeOptions {
        unsigned threads;               /* workers; 0 or 1 decode everything on the calling thread */
        const void *prefix;             /* bytes already read from the input (the magic, a frame header) */
        size_t prefix_size;
        zstd_read_t read;
        void *userdata;
        Flusher *flusher;               /* told about every write (flusher.h); may be NULL */
        uint64_t memory_budget;         /* frames in flight, compressed and decoded; 0: ZSTD_MEMORY_BUDGET_DEFAULT */
} ZstdDecodeOptions;

typedef struct ZstdDecodeResult {
        uint64_t size;                  /* decoded bytes */
        uint64_t frames;                /* frames decoded, skippable ones not counted */
        uint64_t serial_frames;         /* of them, decoded in order by the streaming decoder */
} ZstdDecodeResult;

/**
 * Decode the whole input (frames and skippable frames, one after the other) into fd, a new, empty
 * file, which ends up exactly the decoded size.
 * @ret 0; -EBADMSG for corrupt data, -EPIPE if the input ends early, -E2BIG for a frame decoded
 *      in order whose window is over the budget, -ENOMEM, a write error, or the reader's error
 */
int zstd_decode_to_file(int fd, const ZstdDecodeOptions *o, ZstdDecodeResult *ret);

/** Bytes zstd_parallel_applies() wants to see: a frame header at most. */
#define ZSTD_FRAME_HEADER_MAX 18

/**
 * Whether the input starting with head (its first ZSTD_FRAME_HEADER_MAX bytes, fewer at the end of
 * a short file) begins with a frame the workers can decode: one that states its size, small enough
 * for the budget. If not, decoding it in order is all there is to do, zstd_decode_to_file() would
 * gain nothing.
 */
bool zstd_parallel_applies(const void *head, size_t size, uint64_t memory_budget);

/** Frames decoded by workers: at most this large, and within the budget with their compressed bytes. */
#define ZSTD_PARALLEL_FRAME_MAX (UINT64_C(64) << 20)
/** The budget when none is given. */
#define ZSTD_MEMORY_BUDGET_DEFAULT (UINT64_C(16) << 20)
