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

typedef struct SparseFile SparseFile;

int sparse_file_new(int fd, SparseFile **ret);
void sparse_file_free(SparseFile *s);

/** Append bytes. @ret 0 or negative errno (-ENOSPC when the disk is full). */
int sparse_file_write(SparseFile *s, const void *data, size_t size);

/** Flush, set the final size. @ret 0 or negative errno. */
int sparse_file_finish(SparseFile *s);

/** Bytes appended so far. */
uint64_t sparse_file_size(const SparseFile *s);
