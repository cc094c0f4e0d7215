/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A remote image read in place, whatever it is compressed with.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "compressed-image.h"
#include "error-buf.h"

static const char *const format_names[_IMAGE_FORMAT_MAX] = {
        [IMAGE_FORMAT_RAW] = "raw",
        [IMAGE_FORMAT_XZ] = "xz",
        [IMAGE_FORMAT_ZSTD] = "zstd",
};

int image_format_from_string(const char *s) {
        if (!s)
                return -EINVAL;
        if (strcmp(s, "auto") == 0)
                return IMAGE_FORMAT_AUTO;
        for (int f = 0; f < _IMAGE_FORMAT_MAX; f++)
                if (strcmp(s, format_names[f]) == 0)
                        return f;
        return -EINVAL;
}

const char *image_format_to_string(ImageFormat f) {
        return f >= 0 && f < _IMAGE_FORMAT_MAX ? format_names[f] : "auto";
}

ImageFormat image_format_of(const uint8_t *head, size_t n) {
        static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
        static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

        assert(head || n == 0);

        if (n >= sizeof xz_magic && memcmp(head, xz_magic, sizeof xz_magic) == 0)
                return IMAGE_FORMAT_XZ;
        if (n >= sizeof zstd_magic && memcmp(head, zstd_magic, sizeof zstd_magic) == 0)
                return IMAGE_FORMAT_ZSTD;
        return IMAGE_FORMAT_RAW;
}

uint64_t compressed_image_size(const CompressedImage *c) {
        assert(c);

        return c->format == IMAGE_FORMAT_XZ ? c->xz.size : c->format == IMAGE_FORMAT_ZSTD ? c->zstd.size : 0;
}

int compressed_image_locate(const CompressedImage *c, uint64_t offset, ImageBlock *ret) {
        assert(c);

        switch (c->format) {
        case IMAGE_FORMAT_XZ:
                return xz_image_locate(&c->xz, offset, ret);
        case IMAGE_FORMAT_ZSTD:
                return zstd_image_locate(&c->zstd, offset, ret);
        default:
                return -ERANGE;
        }
}

int compressed_image_decode(const CompressedImage *c, const ImageBlock *b, const uint8_t *in, uint8_t *out,
                            char *error, size_t error_size) {
        assert(c);

        switch (c->format) {
        case IMAGE_FORMAT_XZ:
                return xz_image_decode(&c->xz, b, in, out, error, error_size);
        case IMAGE_FORMAT_ZSTD:
                return zstd_image_decode(b, in, out, error, error_size);
        default:
                return error_setf(error, error_size, -EINVAL, "an uncompressed image has no blocks to decode");
        }
}

void compressed_image_done(CompressedImage *c) {
        if (!c)
                return;
        xz_image_done(&c->xz);
        zstd_image_done(&c->zstd);
        c->format = IMAGE_FORMAT_RAW;
}
