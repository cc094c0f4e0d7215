/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * `urlboot-lazy compress`: a raw disk image written as a seekable zstd file (zstd-image.h), the image cut
 * into frames that each decode on their own, so that a lazy boot decodes only the frames it reads.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAZY_COMPRESS_FRAME_SIZE_DEFAULT (1ULL << 20)
#define LAZY_COMPRESS_LEVEL_DEFAULT 19

typedef struct LazyCompressSettings {
        uint64_t frame_size;            /* the image bytes in one frame (the last one may hold fewer) */
        int level;                      /* zstd's compression level */
        unsigned threads;               /* frames compressed at once; 0: one per CPU this process may use */
        /* called between batches with the image bytes written so far (may be NULL) */
        void (*progress)(uint64_t done, uint64_t total, void *userdata);
        void *userdata;
} LazyCompressSettings;

typedef struct LazyCompressResult {
        uint32_t frames;
        uint64_t image_bytes;           /* the image's size */
        uint64_t allocated_bytes;       /* what it has allocated on disk (its size, for a block device) */
        uint64_t compressed_bytes;      /* the output's size, seek table included */
} LazyCompressResult;

/** A frame size the format takes: whole 4 KiB, at most ZSTD_IMAGE_FRAME_MAX. */
bool lazy_compress_frame_size_valid(uint64_t size);

/** The highest compression level libzstd takes (the lowest taken here is 1). */
int lazy_compress_level_max(void);

/**
 * Write image (a regular file, may be sparse, or a block device) to output as a seekable zstd file. The
 * output appears complete or not at all: it is written to a temporary file in its directory, synced, and
 * renamed over output (an existing file is replaced).
 * @ret 0, or <0 with error saying why (-ENODATA: the image is empty, -EFBIG: too many frames)
 */
int lazy_compress(const char *image, const char *output, const LazyCompressSettings *s, LazyCompressResult *ret,
                  char *error, size_t error_size);
