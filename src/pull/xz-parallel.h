/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Decoding .xz into a new file, several blocks at a time, in little memory.
 *
 * liblzma's multi-threaded decoder holds each block's whole output in memory (24 MiB per thread
 * for `xz -T2 -6`). A block whose header states its sizes — every block `xz -T` writes — can be
 * decoded by any thread, because where its output goes in the file is known. So the reading
 * thread parses the stream's framing and passes each block's compressed bytes, in small chunks
 * from a fixed budget, to a worker; the worker decodes straight into the file at the block's
 * offset, zeros left as holes. Memory: one dictionary per worker plus the chunk budget. Blocks
 * without sizes (single-threaded `xz`) are decoded by the reading thread, in order. The index
 * and the footer of each stream are checked against the blocks, as xz itself does.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "flusher.h"

/** Reads up to size bytes. @ret bytes read, 0 at the end, or negative errno. */
typedef long (*xz_read_t)(void *userdata, void *buf, size_t size);

typedef struct XzDecodeOptions {
        unsigned threads;               /* workers; 0 or 1 decode everything on the calling thread */
        const void *prefix;             /* bytes already read from the input (the magic) */
        size_t prefix_size;
        xz_read_t read;
        void *userdata;
        Flusher *flusher;               /* told about every write (flusher.h); may be NULL */
} XzDecodeOptions;

/**
 * Decode the whole input (concatenated streams and stream padding allowed) into fd, a new, empty
 * file, which ends up exactly the decoded size.
 * @v ret_size  the decoded size
 * @ret 0; -EBADMSG for corrupt data, -EPIPE if the input ends early, -E2BIG for a block needing
 *      more memory than XZ_BLOCK_MEMLIMIT, -ENOMEM, a write error, or the reader's error
 */
int xz_decode_to_file(int fd, const XzDecodeOptions *o, uint64_t *ret_size);

/** Memory one block may need to decode (its dictionary, mostly); larger ones are refused. */
#define XZ_BLOCK_MEMLIMIT (UINT64_C(1024) * 1024 * 1024)
