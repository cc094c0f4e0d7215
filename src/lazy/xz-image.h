/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A multi-block .xz read in place: its index says where each block's compressed bytes are and which
 * bytes of the image it holds, so a read decodes only the blocks it needs (liblzma does the decoding
 * and checks each block's integrity check). nbdkit's xz filter (1.32, and upstream to this day) does the
 * same but aborts nbdkit when a block does not decode (it returns an error without an errno, and
 * nbdkit asserts one): a tampered block would take the whole disk down instead of failing one read.
 *
 * Only what xz --block-size=SIZE (or -T with several threads) writes: one stream, no padding after it,
 * blocks of at most XZ_IMAGE_BLOCK_MAX bytes.
 */
#pragma once

#include <lzma.h>
#include <stddef.h>
#include <stdint.h>

#include "image-block.h"

#define XZ_IMAGE_HEADER_SIZE LZMA_STREAM_HEADER_SIZE   /* the stream header, at the file's start */
#define XZ_IMAGE_FOOTER_SIZE LZMA_STREAM_HEADER_SIZE   /* the stream footer, at its end */
#define XZ_IMAGE_BLOCK_MAX (64ULL << 20)               /* a block's uncompressed size, at most */
#define XZ_IMAGE_INDEX_MAX (16ULL << 20)               /* the index's size in the file, at most */

typedef struct XzImage {
        lzma_index *index;
        uint32_t check;                 /* lzma_check of every block */
        uint64_t size;                  /* the image's (uncompressed) size */
} XzImage;


/**
 * From the file's last XZ_IMAGE_FOOTER_SIZE bytes: the size of the index that precedes them.
 * @ret 0, or <0 with error saying why
 */
int xz_image_index_size(const uint8_t footer[XZ_IMAGE_FOOTER_SIZE], uint64_t file_size, uint64_t *ret,
                        char *error, size_t error_size);

/**
 * Read the index (index_size bytes just before the footer) and check it against the header, the footer and
 * the file's size. @ret 0, or <0 with error saying why
 */
int xz_image_open(XzImage *x, const uint8_t header[XZ_IMAGE_HEADER_SIZE], const uint8_t footer[XZ_IMAGE_FOOTER_SIZE],
                  const uint8_t *index, size_t index_size, uint64_t file_size, char *error, size_t error_size);

/** The block holding the image's byte at offset (< x->size). @ret 0, -ERANGE */
int xz_image_locate(const XzImage *x, uint64_t offset, ImageBlock *ret);

/**
 * Decode one block: in holds its b->total bytes from the file, out gets its b->size bytes.
 * @ret 0, or <0 with error saying why (-EBADMSG: it does not decode or its check fails)
 */
int xz_image_decode(const XzImage *x, const ImageBlock *b, const uint8_t *in, uint8_t *out, char *error,
                    size_t error_size);

void xz_image_done(XzImage *x);
