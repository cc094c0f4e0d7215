/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing a disk image so that its all-zero blocks become holes.
 *
 * Data is gathered into an aligned buffer; each 4 KiB block of zeros is skipped with lseek instead
 * of written, and the file is extended to its full size at the end. An image's empty space then
 * costs no disk (or RAM, on /run) at all.
 */
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include "flusher.h"

typedef struct SparseFile SparseFile;

/** @v buffer_size  bytes gathered before each write (rounded up to 4 KiB blocks) */
int sparse_file_new(int fd, size_t buffer_size, SparseFile **ret);
void sparse_file_free(SparseFile *s);

/**
 * Write from a thread of its own from now on: appending continues into a second buffer while the
 * first is written, so decoding and the kernel's copy into the page cache overlap. A failure of
 * the writer is returned by the next call that flushes. @ret 0 or negative errno.
 */
int sparse_file_start_writer(SparseFile *s);

/** Report every write to f (flusher.h), which makes them durable meanwhile. NULL: none. */
void sparse_file_set_flusher(SparseFile *s, Flusher *f);

/** Append bytes. @ret 0 or negative errno (-ENOSPC when the disk is full). */
int sparse_file_write(SparseFile *s, const void *data, size_t size);

/**
 * Room to decode into in place (no copy): at least one byte. sparse_file_commit() then appends the
 * first size bytes of it.
 */
int sparse_file_space(SparseFile *s, void **ret, size_t *ret_size);
void sparse_file_commit(SparseFile *s, size_t size);

/** Write what is buffered (zero blocks skipped) and wait until it is. @ret 0 or negative errno. */
int sparse_file_flush(SparseFile *s);

/**
 * Continue appending at offset (after flushing). Several SparseFiles may write disjoint ranges of
 * one new file, each from its own thread: skipping zeros is right wherever the file is still a hole.
 */
int sparse_file_seek(SparseFile *s, uint64_t offset);

/** Flush, set the final size. @ret 0 or negative errno. */
int sparse_file_finish(SparseFile *s);

/** Bytes written as data so far, holes not counted; complete after sparse_file_flush(). */
uint64_t sparse_file_data_bytes(const SparseFile *s);
/** The file offset after the last byte appended (the size, when appended from 0). */
uint64_t sparse_file_size(const SparseFile *s);
