/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The reading side of a stream decoder (xz-parallel.c, zstd-parallel.c): the bytes already read (the
 * magic) first, then the reader's, through one buffer the decoder may also look into directly.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/** Reads up to size bytes. @ret bytes read, 0 at the end, or negative errno. */
typedef long (*stream_read_t)(void *userdata, void *buf, size_t size);

#define STREAM_INPUT_BUFFER (64 * 1024)

typedef struct StreamInput {
        const unsigned char *prefix;
        size_t prefix_left;
        stream_read_t read;
        void *userdata;
        unsigned char buf[STREAM_INPUT_BUFFER];
        size_t pos, end;                /* buf[pos, end) is read and not consumed yet */
} StreamInput;

/** @ret bytes available in buf from pos (≥ 1), 0 at the end of input, or the reader's negative errno */
long stream_input_fill(StreamInput *in);

/** Copies size bytes to dst, or skips them if dst is NULL. @ret 0, -EPIPE if the input ends first, or the
 * reader's error */
int stream_input_read(StreamInput *in, void *dst, uint64_t size);
