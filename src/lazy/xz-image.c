/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A multi-block .xz read in place.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "error-buf.h"
#include "xz-image.h"

#define INDEX_MEMLIMIT (64ULL << 20)
#define DECODE_MEMLIMIT (256ULL << 20)  /* a block's decoder: xz -9 needs 65 MiB */

int xz_image_index_size(const uint8_t footer[XZ_IMAGE_FOOTER_SIZE], uint64_t file_size, uint64_t *ret,
                        char *error, size_t error_size) {
        lzma_stream_flags f;

        assert(footer);
        assert(ret);

        if (file_size < XZ_IMAGE_HEADER_SIZE + XZ_IMAGE_FOOTER_SIZE)
                return error_setf(error, error_size, -EBADMSG, "%llu bytes are too few for an .xz file",
                                  (unsigned long long) file_size);
        if (lzma_stream_footer_decode(&f, footer) != LZMA_OK)
                return error_setf(error, error_size, -EBADMSG,
                                  "its last 12 bytes are no xz stream footer (one stream without padding only: "
                                  "xz --block-size=16MiB writes that)");
        if (f.backward_size > XZ_IMAGE_INDEX_MAX ||
            f.backward_size > file_size - XZ_IMAGE_HEADER_SIZE - XZ_IMAGE_FOOTER_SIZE)
                return error_setf(error, error_size, -EBADMSG, "its footer names an index of %llu bytes",
                                  (unsigned long long) f.backward_size);
        *ret = f.backward_size;
        return 0;
}

static int check_blocks(const XzImage *x, char *error, size_t error_size) {
        lzma_index_iter it;

        lzma_index_iter_init(&it, x->index);
        while (!lzma_index_iter_next(&it, LZMA_INDEX_ITER_NONEMPTY_BLOCK))
                if (it.block.uncompressed_size > XZ_IMAGE_BLOCK_MAX)
                        return error_setf(error, error_size, -EFBIG,
                                          "its block %llu holds %llu bytes, more than the %llu MiB read in one go: "
                                          "recompress with xz --block-size=16MiB",
                                          (unsigned long long) it.block.number_in_file,
                                          (unsigned long long) it.block.uncompressed_size, XZ_IMAGE_BLOCK_MAX >> 20);
        return 0;
}

int xz_image_open(XzImage *x, const uint8_t header[XZ_IMAGE_HEADER_SIZE], const uint8_t footer[XZ_IMAGE_FOOTER_SIZE],
                  const uint8_t *index, size_t index_size, uint64_t file_size, char *error, size_t error_size) {
        lzma_stream_flags h, f;
        uint64_t memlimit = INDEX_MEMLIMIT;
        size_t pos = 0;
        int r;

        assert(x);
        assert(header);
        assert(footer);
        assert(index);

        *x = (XzImage) {};
        if (lzma_stream_header_decode(&h, header) != LZMA_OK)
                return error_setf(error, error_size, -EBADMSG, "it does not start with an xz stream header");
        if (lzma_stream_footer_decode(&f, footer) != LZMA_OK || f.backward_size != index_size ||
            lzma_stream_flags_compare(&h, &f) != LZMA_OK)
                return error_setf(error, error_size, -EBADMSG, "its stream footer does not match its header");
        if (lzma_index_buffer_decode(&x->index, &memlimit, NULL, index, &pos, index_size) != LZMA_OK ||
            pos != index_size) {
                xz_image_done(x);       /* an index that decoded but left bytes over was allocated */
                return error_setf(error, error_size, -EBADMSG, "its index does not decode");
        }
        /* the index and the file agree on where everything is: one stream, nothing before or after it */
        if (lzma_index_stream_flags(x->index, &f) != LZMA_OK || lzma_index_file_size(x->index) != file_size) {
                uint64_t described = lzma_index_file_size(x->index);

                xz_image_done(x);
                return error_setf(error, error_size, -EBADMSG,
                                  "its index describes %llu bytes of file, not %llu (several streams or padding?)",
                                  (unsigned long long) described, (unsigned long long) file_size);
        }
        x->check = h.check;
        x->size = lzma_index_uncompressed_size(x->index);
        r = check_blocks(x, error, error_size);
        if (r < 0)
                xz_image_done(x);
        return r;
}

int xz_image_locate(const XzImage *x, uint64_t offset, ImageBlock *ret) {
        lzma_index_iter it;

        assert(x);
        assert(ret);

        if (offset >= x->size)
                return -ERANGE;
        lzma_index_iter_init(&it, x->index);
        if (lzma_index_iter_locate(&it, offset))
                return -ERANGE;
        *ret = (ImageBlock) {
                .offset = it.block.uncompressed_file_offset,
                .size = it.block.uncompressed_size,
                .file_offset = it.block.compressed_file_offset,
                .total = it.block.total_size,
                .unpadded = it.block.unpadded_size,
        };
        return 0;
}

int xz_image_decode(const XzImage *x, const ImageBlock *b, const uint8_t *in, uint8_t *out, char *error,
                    size_t error_size) {
        lzma_filter filters[LZMA_FILTERS_MAX + 1] = { { .id = LZMA_VLI_UNKNOWN } };
        lzma_block block = { .version = 0, .check = x->check, .filters = filters };
        size_t in_pos, out_pos = 0;
        lzma_ret l;

        assert(x);
        assert(b);
        assert(in);
        assert(out);

        if (b->total < 1)
                return error_setf(error, error_size, -EBADMSG, "an empty block");
        block.header_size = lzma_block_header_size_decode(in[0]);
        if (in[0] == 0 || block.header_size > b->total)
                return error_setf(error, error_size, -EBADMSG, "the block at byte %llu has no block header",
                                  (unsigned long long) b->file_offset);
        if (lzma_block_header_decode(&block, NULL, in) != LZMA_OK)
                return error_setf(error, error_size, -EBADMSG, "the block header at byte %llu does not decode",
                                  (unsigned long long) b->file_offset);
        /* a header may ask for a dictionary of 1.5 GiB: the server does not get to choose our memory use */
        if (lzma_raw_decoder_memusage(filters) > DECODE_MEMLIMIT) {
                lzma_filters_free(filters, NULL);
                return error_setf(error, error_size, -EBADMSG, "the block at byte %llu needs more than %llu MiB to "
                                  "decode", (unsigned long long) b->file_offset, DECODE_MEMLIMIT >> 20);
        }
        /* the sizes the index gives, which the block's own (if any) must match */
        l = lzma_block_compressed_size(&block, b->unpadded);
        if (l == LZMA_OK && block.uncompressed_size != LZMA_VLI_UNKNOWN && block.uncompressed_size != b->size)
                l = LZMA_DATA_ERROR;
        block.uncompressed_size = b->size;
        in_pos = block.header_size;
        if (l == LZMA_OK)
                l = lzma_block_buffer_decode(&block, NULL, in, &in_pos, b->total, out, &out_pos, b->size);
        lzma_filters_free(filters, NULL);
        if (l != LZMA_OK || out_pos != b->size)
                return error_setf(error, error_size, -EBADMSG,
                                  "the xz block at byte %llu (the image's bytes %llu-%llu) does not decode or fails "
                                  "its %s check: the file was changed or damaged", (unsigned long long) b->file_offset,
                                  (unsigned long long) b->offset, (unsigned long long) (b->offset + b->size - 1),
                                  x->check == LZMA_CHECK_CRC64 ? "CRC64" : x->check == LZMA_CHECK_CRC32 ? "CRC32" :
                                  x->check == LZMA_CHECK_SHA256 ? "SHA-256" : "integrity");
        return 0;
}

void xz_image_done(XzImage *x) {
        assert(x);

        if (x->index)
                lzma_index_end(x->index, NULL);
        x->index = NULL;
}
