/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where one independently compressed piece of a remote image is (an xz block, a zstd frame): what a read
 * of the image fetches and decodes.
 */
#pragma once

#include <stdint.h>

/** The image's bytes [offset, offset + size) come from the file's [file_offset, + total). */
typedef struct ImageBlock {
        uint64_t offset, size;
        uint64_t file_offset, total;
        uint64_t unpadded;              /* xz: total less the padding, what the block's sizes add up to */
} ImageBlock;
