/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A remote image read in place, whatever it is compressed with: a multi-block .xz (xz-image.h) or a
 * seekable .zst (zstd-image.h), or not compressed at all. Told by the file's first bytes.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "image-block.h"
#include "xz-image.h"
#include "zstd-image.h"

typedef enum ImageFormat {
        IMAGE_FORMAT_RAW,
        IMAGE_FORMAT_XZ,
        IMAGE_FORMAT_ZSTD,
        _IMAGE_FORMAT_MAX,
        IMAGE_FORMAT_AUTO = -1,         /* by the file's first bytes */
} ImageFormat;

#define IMAGE_FORMAT_HEAD_SIZE 6        /* the first bytes image_format_of() looks at */

typedef struct CompressedImage {
        ImageFormat format;
        XzImage xz;
        ZstdImage zstd;
} CompressedImage;

/** The format named (raw, xz, zstd, auto). @ret it, or -EINVAL */
int image_format_from_string(const char *s);
const char *image_format_to_string(ImageFormat f);

/** By the magic at the file's start (n: how many bytes of head there are): xz, zstd, else raw. */
ImageFormat image_format_of(const uint8_t *head, size_t n);

/** The decompressed image's size (a raw one's is the file's, which this does not know: 0). */
uint64_t compressed_image_size(const CompressedImage *c);

/** The block or frame holding the image's byte at offset. @ret 0, -ERANGE */
int compressed_image_locate(const CompressedImage *c, uint64_t offset, ImageBlock *ret);

/** Decode block b (in: its b->total bytes from the file) into out (b->size bytes). @ret 0, <0 with error */
int compressed_image_decode(const CompressedImage *c, const ImageBlock *b, const uint8_t *in, uint8_t *out,
                            char *error, size_t error_size);

void compressed_image_done(CompressedImage *c);
