/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A seekable .zst read in place.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

#include "error-buf.h"
#include "zstd-image.h"

#define ZSTD_FRAME_MAGIC 0xFD2FB528U
#define ZSTD_CONTENT_CHECKSUM_BIT 0x04          /* in the frame header's descriptor, the byte after the magic */

static uint32_t le32(const uint8_t *p) {
        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static size_t entry_size(uint8_t descriptor) {
        return descriptor & ZSTD_IMAGE_CHECKSUM_FLAG ? 12 : 8;
}

/* The footer's frame count and descriptor, checked. @ret 0, -EBADMSG */
static int parse_footer(const uint8_t footer[ZSTD_IMAGE_FOOTER_SIZE], uint32_t *ret_frames, uint8_t *ret_descriptor,
                        char *error, size_t error_size) {
        uint32_t frames = le32(footer);
        uint8_t descriptor = footer[4];

        if (le32(footer + 5) != ZSTD_IMAGE_FOOTER_MAGIC)
                return error_setf(error, error_size, -EBADMSG,
                                  "it ends in no seek table (a .zst made by zstd itself is one stream that cannot be "
                                  "read in place: make it with urlboot-lazy compress)");
        if (descriptor & ZSTD_IMAGE_RESERVED_BITS)
                return error_setf(error, error_size, -EBADMSG, "its seek table's descriptor 0x%02x has reserved bits set",
                                  descriptor);
        if (frames == 0 || frames > ZSTD_IMAGE_FRAMES_MAX)
                return error_setf(error, error_size, -EBADMSG, "its seek table names %u frames (1 to %u are read)",
                                  frames, ZSTD_IMAGE_FRAMES_MAX);
        *ret_frames = frames;
        *ret_descriptor = descriptor;
        return 0;
}

int zstd_image_table_size(const uint8_t footer[ZSTD_IMAGE_FOOTER_SIZE], uint64_t file_size, uint64_t *ret,
                          char *error, size_t error_size) {
        uint8_t descriptor;
        uint32_t frames;
        uint64_t size;
        int r;

        assert(footer);
        assert(ret);

        if (file_size < ZSTD_IMAGE_TABLE_HEADER_SIZE + ZSTD_IMAGE_FOOTER_SIZE)
                return error_setf(error, error_size, -EBADMSG, "%llu bytes are too few for a seekable .zst file",
                                  (unsigned long long) file_size);
        r = parse_footer(footer, &frames, &descriptor, error, error_size);
        if (r < 0)
                return r;
        size = ZSTD_IMAGE_TABLE_HEADER_SIZE + (uint64_t) frames * entry_size(descriptor) + ZSTD_IMAGE_FOOTER_SIZE;
        if (size + (uint64_t) frames * ZSTD_IMAGE_FRAME_MIN > file_size)
                return error_setf(error, error_size, -EBADMSG,
                                  "its seek table of %u frames does not fit in its %llu bytes", frames,
                                  (unsigned long long) file_size);
        *ret = size;
        return 0;
}

/* The entries into z's offsets, each frame checked; the frames must fill the file up to the table. */
static int read_entries(ZstdImage *z, const uint8_t *entries, uint8_t descriptor, uint64_t frames_end, char *error,
                        size_t error_size) {
        uint64_t file_offset = 0, offset = 0;

        for (uint32_t i = 0; i < z->frames; i++) {
                const uint8_t *e = entries + (size_t) i * entry_size(descriptor);
                uint32_t compressed = le32(e), decompressed = le32(e + 4);

                if (compressed < ZSTD_IMAGE_FRAME_MIN || decompressed == 0 || decompressed > ZSTD_IMAGE_FRAME_MAX)
                        return error_setf(error, error_size, -EBADMSG,
                                          "its frame %u has %u bytes holding %u (at least %u holding 1 to %llu are read)",
                                          i, compressed, decompressed, ZSTD_IMAGE_FRAME_MIN, ZSTD_IMAGE_FRAME_MAX);
                z->file_offsets[i] = file_offset;
                z->offsets[i] = offset;
                file_offset += compressed;
                offset += decompressed;
                if (file_offset > frames_end)
                        break;
        }
        if (file_offset != frames_end)
                return error_setf(error, error_size, -EBADMSG,
                                  "its seek table's frames end at byte %llu, its table starts at %llu",
                                  (unsigned long long) file_offset, (unsigned long long) frames_end);
        z->file_offsets[z->frames] = file_offset;
        z->offsets[z->frames] = offset;
        z->size = offset;
        return 0;
}

int zstd_image_open(ZstdImage *z, const uint8_t *table, size_t table_size, uint64_t file_size, char *error,
                    size_t error_size) {
        uint64_t expected;
        uint8_t descriptor;
        uint32_t frames;
        int r;

        assert(z);
        assert(table);

        *z = (ZstdImage) {};
        if (table_size < ZSTD_IMAGE_TABLE_HEADER_SIZE + ZSTD_IMAGE_FOOTER_SIZE || table_size > file_size)
                return error_setf(error, error_size, -EBADMSG, "a seek table of %zu bytes is not one", table_size);
        r = zstd_image_table_size(table + table_size - ZSTD_IMAGE_FOOTER_SIZE, file_size, &expected, error, error_size);
        if (r < 0)
                return r;
        if (expected != table_size)
                return error_setf(error, error_size, -EBADMSG, "its seek table is %llu bytes, not %zu",
                                  (unsigned long long) expected, table_size);
        if (le32(table) != ZSTD_IMAGE_TABLE_MAGIC || le32(table + 4) != table_size - ZSTD_IMAGE_TABLE_HEADER_SIZE)
                return error_setf(error, error_size, -EBADMSG,
                                  "its seek table is not in a skippable frame of its own size");
        (void) parse_footer(table + table_size - ZSTD_IMAGE_FOOTER_SIZE, &frames, &descriptor, error, error_size);
        z->frames = frames;
        z->file_offsets = calloc((size_t) frames + 1, sizeof *z->file_offsets);
        z->offsets = calloc((size_t) frames + 1, sizeof *z->offsets);
        if (!z->file_offsets || !z->offsets) {
                zstd_image_done(z);
                return error_setf(error, error_size, -ENOMEM, "out of memory for a seek table of %u frames", frames);
        }
        r = read_entries(z, table + ZSTD_IMAGE_TABLE_HEADER_SIZE, descriptor, file_size - table_size, error, error_size);
        if (r < 0)
                zstd_image_done(z);
        return r;
}

int zstd_image_locate(const ZstdImage *z, uint64_t offset, ImageBlock *ret) {
        uint32_t lo = 0, hi;

        assert(z);
        assert(ret);

        if (offset >= z->size)
                return -ERANGE;
        /* the last frame whose start is at or before offset (frames are never empty) */
        hi = z->frames;
        while (hi - lo > 1) {
                uint32_t mid = lo + (hi - lo) / 2;

                if (z->offsets[mid] <= offset)
                        lo = mid;
                else
                        hi = mid;
        }
        *ret = (ImageBlock) {
                .offset = z->offsets[lo],
                .size = z->offsets[lo + 1] - z->offsets[lo],
                .file_offset = z->file_offsets[lo],
                .total = z->file_offsets[lo + 1] - z->file_offsets[lo],
        };
        ret->unpadded = ret->total;
        return 0;
}

int zstd_image_decode(const ImageBlock *b, const uint8_t *in, uint8_t *out, char *error, size_t error_size) {
        unsigned long long content;
        size_t n;

        assert(b);
        assert(in);
        assert(out);

        /* exactly one frame, saying how much it holds and carrying the checksum libzstd checks */
        if (b->total < ZSTD_IMAGE_FRAME_MIN || le32(in) != ZSTD_FRAME_MAGIC)
                return error_setf(error, error_size, -EBADMSG, "the frame at byte %llu is no zstd frame",
                                  (unsigned long long) b->file_offset);
        if (!(in[4] & ZSTD_CONTENT_CHECKSUM_BIT))
                return error_setf(error, error_size, -EBADMSG,
                                  "the frame at byte %llu carries no checksum (make the image with urlboot-lazy compress)",
                                  (unsigned long long) b->file_offset);
        n = ZSTD_findFrameCompressedSize(in, b->total);
        content = ZSTD_getFrameContentSize(in, b->total);
        if (ZSTD_isError(n) || n != b->total || content != b->size)
                return error_setf(error, error_size, -EBADMSG,
                                  "the frame at byte %llu is not one frame of %llu bytes holding %llu, as the seek table "
                                  "says", (unsigned long long) b->file_offset, (unsigned long long) b->total,
                                  (unsigned long long) b->size);
        n = ZSTD_decompress(out, b->size, in, b->total);
        if (ZSTD_isError(n) || n != b->size)
                return error_setf(error, error_size, -EBADMSG, "the frame at byte %llu does not decode: %s",
                                  (unsigned long long) b->file_offset,
                                  ZSTD_isError(n) ? ZSTD_getErrorName(n) : "it holds fewer bytes");
        return 0;
}

void zstd_image_done(ZstdImage *z) {
        if (!z)
                return;
        free(z->file_offsets);
        free(z->offsets);
        *z = (ZstdImage) {};
}
