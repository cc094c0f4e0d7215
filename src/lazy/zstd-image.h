/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A .zst made of independent frames with a seek table at its end (zstd's "seekable format", as
 * zstd's contrib/seekable_format describes it), read in place: the table says where each frame's
 * compressed bytes are and which bytes of the image it holds, so a read decodes only its frame.
 * A frame decodes about ten times faster than an xz block of the same size, which is what a lazy boot's
 * reads of the root wait for.
 *
 * The file: the frames one after the other, then one skippable frame holding the table:
 *   magic ZSTD_IMAGE_TABLE_MAGIC (u32 LE), its content's size (u32 LE), then per frame its compressed and
 *   decompressed size (u32 LE each, plus a u32 checksum when the descriptor's bit 7 is set), then the footer:
 *   the number of frames (u32 LE), the descriptor (u8), ZSTD_IMAGE_FOOTER_MAGIC (u32 LE).
 * Each frame must carry zstd's own content checksum (libzstd checks it when it decodes), which
 * `urlboot-lazy compress` writes; the table's optional checksums are not needed then and not checked.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "image-block.h"

#define ZSTD_IMAGE_TABLE_MAGIC 0x184D2A5EU       /* a skippable frame's magic (the one the format uses) */
#define ZSTD_IMAGE_FOOTER_MAGIC 0x8F92EAB1U      /* the seek table footer's, the file's last 4 bytes */
#define ZSTD_IMAGE_FOOTER_SIZE 9                 /* frames u32, descriptor u8, magic u32 */
#define ZSTD_IMAGE_TABLE_HEADER_SIZE 8           /* the skippable frame's magic and size */
#define ZSTD_IMAGE_CHECKSUM_FLAG 0x80            /* descriptor: every entry has a checksum too */
#define ZSTD_IMAGE_RESERVED_BITS 0x7c            /* descriptor: must be zero */
#define ZSTD_IMAGE_FRAME_MAX (64ULL << 20)       /* a frame's decompressed size, at most */
/* frames in one file, at most: 1 TiB of 1 MiB frames; what a server can make the initrd hold for the table
 * stays within 12 MiB (and 16 MiB of offsets), as an .xz index within XZ_IMAGE_INDEX_MAX */
#define ZSTD_IMAGE_FRAMES_MAX (1U << 20)
#define ZSTD_IMAGE_FRAME_MIN 9                   /* a frame's compressed size, at least (magic, header, block) */

typedef struct ZstdImage {
        uint64_t *file_offsets;         /* per frame, where its compressed bytes start; one more: the table's */
        uint64_t *offsets;              /* per frame, the image offset its bytes start at; one more: the size */
        uint32_t frames;
        uint64_t size;                  /* the image's (decompressed) size */
} ZstdImage;

/**
 * From the file's last ZSTD_IMAGE_FOOTER_SIZE bytes: the size of the seek table, its skippable frame's
 * header included, that ends with them (that many bytes before the file's end).
 * @ret 0, or <0 with error saying why (-EBADMSG: no seek table, e.g. a .zst made by zstd itself)
 */
int zstd_image_table_size(const uint8_t footer[ZSTD_IMAGE_FOOTER_SIZE], uint64_t file_size, uint64_t *ret,
                          char *error, size_t error_size);

/**
 * Read the seek table (table_size bytes: the file's last ones) and check it against the file's size: the
 * frames fill the file up to the table, none empty or larger than ZSTD_IMAGE_FRAME_MAX.
 * @ret 0, or <0 with error saying why
 */
int zstd_image_open(ZstdImage *z, const uint8_t *table, size_t table_size, uint64_t file_size, char *error,
                    size_t error_size);

/** The frame holding the image's byte at offset (< z->size). @ret 0, -ERANGE */
int zstd_image_locate(const ZstdImage *z, uint64_t offset, ImageBlock *ret);

/**
 * Decode one frame: in holds its b->total bytes from the file, out gets its b->size bytes.
 * @ret 0, or <0 with error saying why (-EBADMSG: not one frame of that size, no content checksum, or it
 * does not decode or its checksum fails)
 */
int zstd_image_decode(const ImageBlock *b, const uint8_t *in, uint8_t *out, char *error, size_t error_size);

void zstd_image_done(ZstdImage *z);
