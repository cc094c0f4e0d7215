/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for the frame-parallel zstd decoder: files made here with libzstd (frames of 1 MiB with their
 * sizes, as `urlboot-lazy compress` writes them, skippable frames between and after them, frames
 * without sizes), decoded with 0 to 2 workers and read in pieces of 1 byte to 64 KiB; then damaged:
 * truncated, corrupted, a reserved block type, a failing reader.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "tests.h"
#include "zstd-parallel.h"

#define FRAME (1024 * 1024)

typedef struct Buffer {
        uint8_t *data;
        size_t size;
} Buffer;

static void append(Buffer *b, const void *data, size_t size) {
        b->data = realloc(b->data, b->size + size);
        ASSERT_TRUE(b->data);
        memcpy(b->data + b->size, data, size);
        b->size += size;
}

/* Frames of the image: 'z' zeros, 'd' text-like data, 's' (last only) a short one of data. */
static Buffer make_image(const char *layout) {
        Buffer b = {};
        uint8_t *frame = malloc(FRAME);
        uint32_t x = 12345;

        ASSERT_TRUE(frame);
        for (size_t i = 0; layout[i]; i++) {
                for (size_t k = 0; k < FRAME; k++) {
                        x = x * 1103515245 + 12345;
                        frame[k] = layout[i] == 'z' ? 0 : (uint8_t) ('a' + (x >> 16) % 16);
                }
                append(&b, frame, layout[i] == 's' ? 12345 : FRAME);
        }
        free(frame);
        return b;
}

static void append_frame(Buffer *out, const uint8_t *data, size_t size, bool content_size) {
        ZSTD_CCtx *c = ZSTD_createCCtx();
        size_t bound = ZSTD_compressBound(size), n;
        uint8_t *buf = malloc(bound);

        ASSERT_TRUE(c && buf);
        ASSERT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)));
        ASSERT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, content_size)));
        n = content_size ? ZSTD_compress2(c, buf, bound, data, size) : 0;
        if (!content_size) {
                /* Streamed, the size unknown to the encoder: the header cannot state it. */
                ZSTD_inBuffer in = { data, size, 0 };
                ZSTD_outBuffer o = { buf, bound, 0 };

                ASSERT_EQ(ZSTD_compressStream2(c, &o, &in, ZSTD_e_end), 0);
                n = o.pos;
        }
        ASSERT_FALSE(ZSTD_isError(n));
        append(out, buf, n);
        ZSTD_freeCCtx(c);
        free(buf);
}

static void append_skippable(Buffer *out, size_t size) {
        uint8_t header[8] = { 0x5e, 0x2a, 0x4d, 0x18, (uint8_t) size, (uint8_t) (size >> 8) };
        uint8_t *junk = calloc(1, size + 1);

        append(out, header, sizeof header);
        append(out, junk, size);
        free(junk);
}

/* The image in frames of FRAME bytes; at frame 'skip_at', a skippable frame before it; frames listed in
 * 'unsized' (by index) do not state their size. */
static Buffer compress(const Buffer *image, size_t skip_at, const char *unsized) {
        Buffer out = {};
        size_t i = 0;

        for (size_t off = 0; off < image->size; off += FRAME, i++) {
                if (i == skip_at)
                        append_skippable(&out, 100);
                append_frame(&out, image->data + off, image->size - off < FRAME ? image->size - off : FRAME,
                             !strchr(unsized, (int) ('0' + i)));
        }
        append_skippable(&out, 1000);
        return out;
}

typedef struct Reader {
        const Buffer *in;
        size_t pos, piece;
        size_t fail_at;         /* return -EIO once pos reaches this (SIZE_MAX: never) */
} Reader;

static long read_pieces(void *userdata, void *buf, size_t size) {
        Reader *r = userdata;
        size_t n = r->piece;

        if (r->pos >= r->fail_at)
                return -EIO;
        if (n > size)
                n = size;
        if (n > r->in->size - r->pos)
                n = r->in->size - r->pos;
        memcpy(buf, r->in->data + r->pos, n);
        r->pos += n;
        return (long) n;
}

static ZstdDecodeResult last;

static int decode_with(const Buffer *input, unsigned threads, size_t piece, size_t fail_at, uint64_t budget,
                       Buffer *ret_out) {
        Reader reader = { .in = input, .piece = piece, .fail_at = fail_at };
        struct stat st;
        int fd, r;

        fd = test_new_file("out");
        /* The magic comes as the prefix, as urlboot-pull passes what it read to tell the format. */
        ZstdDecodeOptions o = {
                .threads = threads, .prefix = input->data, .prefix_size = input->size < 4 ? input->size : 4,
                .read = read_pieces, .userdata = &reader, .memory_budget = budget,
        };
        reader.pos = o.prefix_size;
        r = zstd_decode_to_file(fd, &o, &last);
        if (r >= 0 && ret_out) {
                ASSERT_OK(fstat(fd, &st));
                ASSERT_EQ(st.st_size, last.size);
                ret_out->size = last.size;
                ret_out->data = malloc(last.size ?: 1);
                ASSERT_EQ(pread(fd, ret_out->data, last.size, 0), (ssize_t) last.size);
                /* Of the caller's images, half or more are zeros: holes. */
                ASSERT_TRUE((uint64_t) st.st_blocks * 512 <= last.size / 2 + 64 * 1024);
        }
        close(fd);
        return r;
}

static int decode(const Buffer *input, unsigned threads, size_t piece, Buffer *ret_out) {
        return decode_with(input, threads, piece, SIZE_MAX, 0, ret_out);
}

static void expect_image(const Buffer *input, const Buffer *image, uint64_t serial_frames) {
        static const size_t pieces[] = { 1, 7, 65536 };

        for (unsigned threads = 0; threads <= 2; threads++)
                for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
                        Buffer out;

                        ASSERT_OK(decode(input, threads, pieces[i], &out));
                        ASSERT_EQ(out.size, image->size);
                        ASSERT_TRUE(memcmp(out.data, image->data, image->size) == 0);
                        ASSERT_EQ(last.serial_frames, serial_frames);
                        free(out.data);
                }
}

static void expect_error(const Buffer *input, int error) {
        for (unsigned threads = 0; threads <= 2; threads++) {
                int r = decode(input, threads, 7 + threads * 30000, NULL);

                if (r != error)
                        test_fail(__FILE__, __LINE__, "threads=%u: %s, expected %s", threads,
                                  r >= 0 ? "success" : strerror(-r), strerror(-error));
        }
}

TEST(frames_any_threads_any_pieces) {
        Buffer image = make_image("dzzdzzzs"), zst = compress(&image, 3, "");

        ASSERT_TRUE(zstd_parallel_applies(zst.data, ZSTD_FRAME_HEADER_MAX, 0));
        expect_image(&zst, &image, 0);
        ASSERT_EQ(last.frames, 8);
        free(zst.data);
        free(image.data);
}

/* The usual `zstd` file: one frame without its size. The caller keeps its streaming decoder; given to
 * this one anyway, it is decoded in order. */
TEST(single_frame_without_size) {
        Buffer image = make_image("dzz"), zst = {};

        append_frame(&zst, image.data, image.size, false);
        ASSERT_FALSE(zstd_parallel_applies(zst.data, ZSTD_FRAME_HEADER_MAX, 0));
        ASSERT_FALSE(zstd_parallel_applies(zst.data, 3, 0));
        expect_image(&zst, &image, 1);
        free(zst.data);
        free(image.data);
}

/* A single frame with its size, but larger than the budget allows: in order too. */
TEST(large_frame_in_order) {
        Buffer image = make_image("dzz"), zst = {};

        append_frame(&zst, image.data, image.size, true);
        ASSERT_TRUE(zstd_parallel_applies(zst.data, ZSTD_FRAME_HEADER_MAX, 0));
        ASSERT_FALSE(zstd_parallel_applies(zst.data, ZSTD_FRAME_HEADER_MAX, 4 * FRAME));
        for (unsigned threads = 0; threads <= 2; threads++) {
                Buffer out;

                ASSERT_OK(decode_with(&zst, threads, 65536, SIZE_MAX, 4 * FRAME, &out));
                ASSERT_EQ(last.serial_frames, 1);
                ASSERT_EQ(out.size, image.size);
                ASSERT_TRUE(memcmp(out.data, image.data, image.size) == 0);
                free(out.data);
        }
        free(zst.data);
        free(image.data);
}

/* Later frames without sizes, between sized ones: decoded in order at their offsets. */
TEST(unsized_frames_between) {
        Buffer image = make_image("dzdzzs"), zst = compress(&image, 1, "25");

        expect_image(&zst, &image, 2);
        free(zst.data);
        free(image.data);
}

TEST(truncated_anywhere) {
        Buffer image = make_image("dzdzs"), zst = compress(&image, 2, "3");
        size_t full = zst.size;
        /* In the magic, a frame header, a block, the unsized frame, the skippable frames. */
        size_t cuts[] = { 2, 5, 9, 100, full / 3, full / 2, full - 5000, full - 1005, full - 1 };

        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
                zst.size = cuts[i];
                for (unsigned threads = 0; threads <= 2; threads++) {
                        int r = decode(&zst, threads, 7919, NULL);

                        if (r != -EPIPE)
                                test_fail(__FILE__, __LINE__, "cut at %zu of %zu, threads=%u: %s", cuts[i], full,
                                          threads, r >= 0 ? "success" : strerror(-r));
                }
        }
        free(zst.data);
        free(image.data);
}

TEST(corrupt_bytes) {
        Buffer image = make_image("dzdzzs"), zst = compress(&image, 9, "");
        size_t first = ZSTD_findFrameCompressedSize(zst.data, zst.size);
        /* In the first block's data, the first frame's checksum, the next data frame's data. */
        size_t spots[] = { 200, first - 2, first + 300 };

        for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
                zst.data[spots[i]] ^= 0x40;
                expect_error(&zst, -EBADMSG);
                zst.data[spots[i]] ^= 0x40;
        }
        expect_image(&zst, &image, 0);
        free(zst.data);
        free(image.data);
}

/* A frame whose header states a size one byte off: the worker's buffer is exactly the stated size. */
TEST(lying_content_size) {
        Buffer image = make_image("dd"), zst = compress(&image, 9, "");

        /* Descriptor 0xa4 or so: 4-byte size after a 1-byte window descriptor, or directly. */
        ASSERT_EQ(zst.data[4] >> 6, 2);
        zst.data[(zst.data[4] & 0x20) ? 5 : 6] ^= 0x01;
        expect_error(&zst, -EBADMSG);
        free(zst.data);
        free(image.data);
}

TEST(reserved_block_type_and_bad_headers) {
        /* Single segment, a 1-byte content size of 0, then a last block of the reserved type. */
        static uint8_t reserved[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x07, 0x00, 0x00 };
        /* The reserved bit of the descriptor. */
        static uint8_t reserved_bit[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x28, 0x00, 0x01, 0x00, 0x00 };
        /* A raw block larger than any block may be. */
        static uint8_t huge_block[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x20 };
        /* Something not a frame after a frame. */
        static uint8_t junk_after[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00, 'j', 'u', 'n', 'k' };
        /* The same frame alone: valid, empty. */
        Buffer empty = { junk_after, 9 };
        Buffer bad[] = {
                { reserved, sizeof reserved }, { reserved_bit, sizeof reserved_bit },
                { huge_block, sizeof huge_block }, { junk_after, sizeof junk_after },
        };

        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
                expect_error(&bad[i], -EBADMSG);
        for (unsigned threads = 0; threads <= 2; threads++) {
                Buffer out;

                ASSERT_OK(decode_with(&empty, threads, 1, SIZE_MAX, 0, &out));
                ASSERT_EQ(out.size, 0);
                free(out.data);
        }
}

TEST(reader_failure_is_returned) {
        Buffer image = make_image("dzdz"), zst = compress(&image, 1, "");

        for (unsigned threads = 0; threads <= 2; threads++) {
                ASSERT_EQ(decode_with(&zst, threads, 4096, zst.size / 2, 0, NULL), -EIO);
                ASSERT_EQ(decode_with(&zst, threads, 4096, 10, 0, NULL), -EIO);
        }
        free(zst.data);
        free(image.data);
}
