/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A bounded byte pipe between two threads: the downloader writes, the unpacker reads.
 *
 * The writer blocks while the buffer is full, so a slow disk slows the download instead of growing
 * memory. Either side can close: the writer with a status (0 = complete stream), the reader by
 * aborting, which makes further writes fail.
 */
#pragma once

#include <stddef.h>

typedef struct RingBuffer RingBuffer;

int ring_buffer_new(size_t capacity, RingBuffer **ret);
void ring_buffer_free(RingBuffer *b);

/** Copy all of data in, waiting for room. @ret 0, or the reader's abort status (negative errno). */
int ring_buffer_write(RingBuffer *b, const void *data, size_t size);

/** Writer is done: status 0 means the stream ended normally, negative means it broke. */
void ring_buffer_close(RingBuffer *b, int status);

/**
 * Read up to size bytes, waiting for at least one: on an empty buffer, until a quarter of it is
 * filled or the writer closes (as the writer, on a full one, waits for a quarter to be free), so
 * that the two threads wake each other for large steps, not for every piece the network delivers.
 * @ret bytes read, 0 at a normal end of stream, or the writer's negative close status
 */
long ring_buffer_read(RingBuffer *b, void *data, size_t size);

/** Reader gives up with a negative errno; the writer's next write returns it. */
void ring_buffer_abort(RingBuffer *b, int status);
