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
 * offset, zeros left as holes. Memory: the dictionaries of the blocks being decoded, which together
 * stay within a budget (a block is handed out only when its dictionary fits beside the others',
 * and a block needing more than the whole budget fails before anything is allocated for it), plus
 * the chunk budget and the output buffers (a few MiB). A small block that repeats, byte for byte, a
 * block that decoded to zeros only is not decoded again: its range stays a hole. Blocks
 * without sizes (single-threaded `xz`) are decoded by the reading thread, in order. The index
 * and the footer of each stream are checked against the blocks, as xz itself does.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "flusher.h"
#include "stream-input.h"

typedef stream_read_t xz_read_t;

typedef struct XzDecodeOptions {
        unsigned threads;               /* workers; 0 or 1 decode everything on the calling thread */
        const void *prefix;             /* bytes already read from the input (the magic) */
        size_t prefix_size;
        xz_read_t read;
        void *userdata;
        Flusher *flusher;               /* told about every write (flusher.h); may be NULL */
        uint64_t memory_budget;         /* bytes for all block decoders at once; 0: XZ_MEMORY_BUDGET_DEFAULT */
        /* Input read ahead for the next block while the chunk budget holds the current one's, so that a
         * worker that finishes need not wait for the other's block to arrive: up to spill_max bytes at
         * once, in a file without a name in spill_dir_fd (page cache and disk, not this process's
         * memory). 0: none, the reader waits for the budget, as it does from the first write to the
         * file that fails (spill_error). */
        int spill_dir_fd;
        uint64_t spill_max;
} XzDecodeOptions;

typedef struct XzDecodeResult {
        uint64_t size;                  /* decoded bytes */
        uint64_t memory_needed;         /* with -E2BIG: what the refused block would need */
        uint64_t skipped;               /* of size, repeats of a block of zeros: holes, not decoded */
        uint64_t spilled;               /* input bytes read ahead through the spill file */
        int spill_error;                /* a write to it failed (-errno): the rest waited for memory */
} XzDecodeResult;

/**
 * Decode the whole input (concatenated streams and stream padding allowed) into fd, a new, empty
 * file, which ends up exactly the decoded size.
 * @v ret  the decoded size, or the memory a refused block needs
 * @ret 0; -EBADMSG for corrupt data, -EPIPE if the input ends early, -E2BIG for a block needing
 *      more memory than the budget, -ENOMEM, a write error, or the reader's error
 */
int xz_decode_to_file(int fd, const XzDecodeOptions *o, XzDecodeResult *ret);

/** Read ahead into the spill file at once: `xz -T2 -6` cuts 24 MiB blocks, which an OS image packs to 2-7
 * MiB, so the next block's input fits while the current one's is decoded; a block that packs worse (up
 * to 24 MiB) only makes the reader wait for part of it, as without a spill file. */
#define XZ_SPILL_DEFAULT (UINT64_C(16) * 1024 * 1024)

/** The budget when none is given: enough for two `xz -9` blocks at once. */
#define XZ_MEMORY_BUDGET_DEFAULT (UINT64_C(256) * 1024 * 1024)
