/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for the block-parallel xz decoder: streams made here with liblzma (multi-block with sizes
 * in the block headers as `xz -T` writes them, single-block without), decoded with 0 to 3 workers
 * and read in uneven pieces; then damaged: truncated, corrupted, lying block sizes, bad padding.
 */
#include <dirent.h>
#include <fcntl.h>
#include <lzma.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "xz-parallel.h"

#define IMAGE_SIZE (3 * 1024 * 1024 + 12345)

typedef struct Buffer {
        uint8_t *data;
        size_t size;
} Buffer;

/* Text-like data with zero runs (which must become holes): compresses, but not to nothing. */
static Buffer make_image(void) {
        Buffer b = { malloc(IMAGE_SIZE), IMAGE_SIZE };
        uint32_t x = 12345;

        ASSERT_TRUE(b.data);
        for (size_t i = 0; i < b.size; i++) {
                x = x * 1103515245 + 12345;
                b.data[i] = (i / 65536) % 3 == 1 ? 0 : (uint8_t) ('a' + (x >> 16) % 16);
        }
        return b;
}

/* block_size 0: one block, sizes not in its header (like single-threaded xz). */
static Buffer compress(const Buffer *in, uint64_t block_size) {
        lzma_stream s = LZMA_STREAM_INIT;
        Buffer out = { malloc(lzma_stream_buffer_bound(in->size)), 0 };
        lzma_ret ret;

        ASSERT_TRUE(out.data);
        if (block_size > 0) {
                lzma_mt mt = {
                        .threads = 2, .block_size = block_size, .preset = 1, .check = LZMA_CHECK_CRC64,
                };
                ret = lzma_stream_encoder_mt(&s, &mt);
        } else
                ret = lzma_easy_encoder(&s, 1, LZMA_CHECK_CRC32);
        ASSERT_EQ(ret, LZMA_OK);
        s.next_in = in->data;
        s.avail_in = in->size;
        s.next_out = out.data;
        s.avail_out = lzma_stream_buffer_bound(in->size);
        ret = lzma_code(&s, LZMA_FINISH);
        ASSERT_EQ(ret, LZMA_STREAM_END);
        out.size = s.total_out;
        lzma_end(&s);
        return out;
}

typedef struct Reader {
        const Buffer *in;
        size_t pos;
        size_t fail_at;         /* return -EIO once pos reaches this (SIZE_MAX: never) */
        unsigned step;
} Reader;

/* Uneven pieces, 1 byte to about 20 KiB, so framing straddles every read boundary. */
static long read_pieces(void *userdata, void *buf, size_t size) {
        Reader *r = userdata;
        size_t n = 1 + (r->step++ * 7919) % 20000;

        if (r->pos >= r->fail_at)
                return -EIO;
        if (n > size)
                n = size;
        if (n > r->in->size - r->pos)
                n = r->in->size - r->pos;
        if (r->fail_at != SIZE_MAX && n > r->fail_at - r->pos)
                n = r->fail_at - r->pos;
        memcpy(buf, r->in->data + r->pos, n);
        r->pos += n;
        return (long) n;
}

/* The last decode()'s blocks not decoded, as repeats of a block of zeros, and its input read ahead
 * through the spill file. */
static uint64_t last_skipped, last_spilled;
static int last_spill_error;
/* The spill file decode() allows (0: none), in spill_dir (NULL: the test's directory). */
static uint64_t spill_max;
static const char *spill_dir;

/* Decodes input into a new file; the result, and the file's contents in *ret_out. */
static int decode(const Buffer *input, unsigned threads, size_t fail_at, Buffer *ret_out) {
        Reader reader = { .in = input, .fail_at = fail_at };
        char name[32];
        XzDecodeResult result;
        uint64_t size;
        struct stat st;
        int fd, r;

        snprintf(name, sizeof name, "out-%u", threads);
        fd = test_new_file(name);
        /* The first 6 bytes come as the prefix, as urlboot-pull passes the magic it read. */
        XzDecodeOptions o = {
                .threads = threads, .prefix = input->data, .prefix_size = 6,
                .read = read_pieces, .userdata = &reader,
                .spill_dir_fd = open(spill_dir ?: test_tmpdir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC),
                .spill_max = spill_max,
        };
        ASSERT_TRUE(o.spill_dir_fd >= 0);
        reader.pos = 6;
        r = xz_decode_to_file(fd, &o, &result);
        close(o.spill_dir_fd);
        size = result.size;
        last_skipped = r >= 0 ? result.skipped : 0;
        last_spilled = r >= 0 ? result.spilled : 0;
        last_spill_error = r >= 0 ? result.spill_error : 0;
        if (r >= 0 && ret_out) {
                ASSERT_OK(fstat(fd, &st));
                ASSERT_EQ(st.st_size, size);
                ret_out->size = size;
                ret_out->data = malloc(size ?: 1);
                ASSERT_EQ(pread(fd, ret_out->data, size, 0), (ssize_t) size);
                /* The zero thirds (or more) are holes. */
                ASSERT_TRUE((uint64_t) st.st_blocks * 512 < size * 3 / 4);
        }
        close(fd);
        return r;
}

static void expect_image(const Buffer *input, const Buffer *image) {
        for (unsigned threads = 0; threads <= 3; threads++) {
                Buffer out;

                ASSERT_OK(decode(input, threads, SIZE_MAX, &out));
                ASSERT_EQ(out.size, image->size);
                ASSERT_TRUE(memcmp(out.data, image->data, image->size) == 0);
                free(out.data);
        }
}

static void expect_error(const Buffer *input, int error) {
        for (unsigned threads = 0; threads <= 3; threads++) {
                int r = decode(input, threads, SIZE_MAX, NULL);

                if (r != error)
                        test_fail(__FILE__, __LINE__, "threads=%u: %s, expected %s", threads,
                                  r >= 0 ? "success" : strerror(-r), strerror(-error));
        }
}

static Buffer concat(const Buffer *a, size_t padding, const Buffer *b) {
        Buffer c = { calloc(1, a->size + padding + b->size), a->size + padding + b->size };

        ASSERT_TRUE(c.data);
        memcpy(c.data, a->data, a->size);
        memcpy(c.data + a->size + padding, b->data, b->size);
        return c;
}

TEST(multi_block_any_threads) {
        Buffer image = make_image(), xz = compress(&image, 256 * 1024);

        expect_image(&xz, &image);
        free(xz.data);
        free(image.data);
}

#define BLOCK (256 * 1024)

/* Blocks of the image: 'z' zeros, 'd' data (as make_image's), 'x' the byte 'x' throughout. */
static Buffer image_of_blocks(const char *layout) {
        Buffer data = make_image(), b = { calloc(strlen(layout), BLOCK), strlen(layout) * BLOCK };

        ASSERT_TRUE(b.data);
        for (size_t i = 0; layout[i]; i++)
                if (layout[i] == 'd')
                        memcpy(b.data + i * BLOCK, data.data + i * BLOCK % (IMAGE_SIZE - BLOCK), BLOCK);
                else if (layout[i] == 'x')
                        memset(b.data + i * BLOCK, 'x', BLOCK);
        free(data.data);
        return b;
}

/* `xz -T` writes identical blocks for identical input: a repeat of a block that decoded to zeros is
 * left a hole without decoding; repeats of other blocks are decoded. */
TEST(repeated_zero_blocks_are_holes) {
        Buffer image = image_of_blocks("dzzzzzzzzdzzzzxxxdd"), xz = compress(&image, BLOCK);

        for (unsigned threads = 0; threads <= 3; threads++) {
                Buffer out;

                ASSERT_OK(decode(&xz, threads, SIZE_MAX, &out));
                ASSERT_EQ(out.size, image.size);
                ASSERT_TRUE(memcmp(out.data, image.data, image.size) == 0);
                /* With workers: the first zero block is decoded, its 11 repeats are not (the data block
                 * between the runs is too large to be kept: the zero block stays the kept one); the
                 * 'x' blocks are decoded each time. */
                ASSERT_EQ(last_skipped, threads > 1 ? 11 * BLOCK : 0);
                free(out.data);
        }
        free(xz.data);
        free(image.data);
}

/* A block that almost repeats a zero block (one byte of its data changed) is decoded, and fails. */
TEST(damaged_repeat_is_decoded) {
        Buffer image = image_of_blocks("zzzz"), xz = compress(&image, BLOCK);
        lzma_filter filters[LZMA_FILTERS_MAX + 1];
        lzma_block block = { .version = 0, .check = LZMA_CHECK_CRC64, .filters = filters };
        size_t size;

        block.header_size = lzma_block_header_size_decode(xz.data[12]);
        ASSERT_EQ(lzma_block_header_decode(&block, NULL, xz.data + 12), LZMA_OK);
        lzma_filters_free(filters, NULL);
        size = (size_t) lzma_block_total_size(&block);
        /* The third block: identical to the first two until the change. */
        ASSERT_TRUE(memcmp(xz.data + 12, xz.data + 12 + 2 * size, size) == 0);
        xz.data[12 + 2 * size + block.header_size + 20] ^= 0x01;
        expect_error(&xz, -EBADMSG);
        free(xz.data);
        free(image.data);
}

TEST(single_block_without_sizes) {
        Buffer image = make_image(), xz = compress(&image, 0);

        expect_image(&xz, &image);
        free(xz.data);
        free(image.data);
}

TEST(concatenated_streams_and_padding) {
        Buffer image = make_image(), multi = compress(&image, 512 * 1024), single = compress(&image, 0);
        Buffer twice = concat(&image, 0, &image);
        Buffer padded = concat(&multi, 8, &single), unpadded = concat(&multi, 0, &single);
        Buffer bad_padding = concat(&multi, 6, &single);

        expect_image(&padded, &twice);
        expect_image(&unpadded, &twice);
        /* Stream padding must be a multiple of four bytes. */
        expect_error(&bad_padding, -EBADMSG);
        free(bad_padding.data);
        free(unpadded.data);
        free(padded.data);
        free(twice.data);
        free(single.data);
        free(multi.data);
        free(image.data);
}

TEST(truncated_anywhere) {
        Buffer image = make_image(), xz = compress(&image, 256 * 1024);
        size_t full = xz.size;
        /* In a block, at a block boundary's neighbourhood, in the index, in the footer. */
        size_t cuts[] = { 6, 12, 13, 100, full / 3, full / 2, full - 200, full - 40, full - 12, full - 1 };

        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
                xz.size = cuts[i];
                for (unsigned threads = 0; threads <= 2; threads++) {
                        int r = decode(&xz, threads, SIZE_MAX, NULL);

                        if (r != -EPIPE && r != -EBADMSG)
                                test_fail(__FILE__, __LINE__, "cut at %zu of %zu, threads=%u: %s", cuts[i],
                                          full, threads, r >= 0 ? "success" : strerror(-r));
                }
        }
        free(xz.data);
        free(image.data);
}

TEST(corrupt_bytes) {
        Buffer image = make_image(), xz = compress(&image, 256 * 1024);
        /* A block's data (its check fails), the index, the footer's backward size. */
        size_t spots[] = { 200, xz.size / 2, xz.size - 30, xz.size - 8 };

        for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
                xz.data[spots[i]] ^= 0x40;
                expect_error(&xz, -EBADMSG);
                xz.data[spots[i]] ^= 0x40;
        }
        expect_image(&xz, &image);
        free(xz.data);
        free(image.data);
}

/* A block header that states a wrong uncompressed size, with a valid header CRC: a worker would
 * write past its range, so it must be caught. */
TEST(lying_block_size) {
        Buffer image = make_image(), xz = compress(&image, 256 * 1024);
        lzma_filter filters[LZMA_FILTERS_MAX + 1];
        lzma_block block = { .version = 0, .check = LZMA_CHECK_CRC64, .filters = filters };
        uint8_t *header = xz.data + 12;         /* the first block follows the stream header */

        block.header_size = lzma_block_header_size_decode(header[0]);
        ASSERT_EQ(lzma_block_header_decode(&block, NULL, header), LZMA_OK);
        ASSERT_EQ(block.uncompressed_size, 256 * 1024);
        block.uncompressed_size -= 1;           /* the same VLI length: the header keeps its size */
        ASSERT_EQ(lzma_block_header_encode(&block, header), LZMA_OK);
        for (size_t i = 0; filters[i].id != LZMA_VLI_UNKNOWN; i++)
                free(filters[i].options);
        expect_error(&xz, -EBADMSG);
        free(xz.data);
        free(image.data);
}

TEST(reader_failure_is_returned) {
        Buffer image = make_image(), xz = compress(&image, 256 * 1024);

        for (unsigned threads = 0; threads <= 2; threads++) {
                ASSERT_EQ(decode(&xz, threads, xz.size / 2, NULL), -EIO);
                ASSERT_EQ(decode(&xz, threads, 20, NULL), -EIO);
        }
        free(xz.data);
        free(image.data);
}

#define BIG_BLOCK (2 * 1024 * 1024)

/* 8 MiB of bytes that do not compress, 600 KiB in each MiB, zeros between: a 2 MiB block stays over a
 * MiB compressed, more than the chunk budget holds beside a spill file. */
static Buffer make_big_image(void) {
        Buffer b = { calloc(1, 4 * BIG_BLOCK), 4 * BIG_BLOCK };
        uint64_t x = 42;

        ASSERT_TRUE(b.data);
        for (size_t i = 0; i < b.size; i++)
                if (i % (1024 * 1024) < 600 * 1024) {
                        x = x * 6364136223846793005u + 1442695040888963407u;
                        b.data[i] = (uint8_t) (x >> 56);
                }
        return b;
}

/* Entries of the test's directory other than decode()'s outputs: the spill file must have no name. */
static unsigned stray_files(void) {
        DIR *d = opendir(test_tmpdir());
        struct dirent *de;
        unsigned n = 0;

        ASSERT_TRUE(d);
        while ((de = readdir(d)))
                if (de->d_name[0] != '.' && strncmp(de->d_name, "out-", 4) != 0)
                        n++;
        closedir(d);
        return n;
}

/* With workers, the input of a block larger than the chunk budget goes on into the spill file, from
 * which the worker reads it back: the image is the same, whether the spill file holds one piece at a
 * time (the reader waits for it) or many. */
TEST(large_blocks_read_ahead_through_spill_file) {
        Buffer image = make_big_image(), xz = compress(&image, BIG_BLOCK);
        uint64_t maxima[] = { 64 * 1024, XZ_SPILL_DEFAULT };

        for (size_t i = 0; i < sizeof maxima / sizeof maxima[0]; i++)
                for (unsigned threads = 0; threads <= 3; threads++) {
                        Buffer out;

                        spill_max = maxima[i];
                        ASSERT_OK(decode(&xz, threads, SIZE_MAX, &out));
                        ASSERT_EQ(out.size, image.size);
                        ASSERT_TRUE(memcmp(out.data, image.data, image.size) == 0);
                        if (threads > 1)
                                ASSERT_TRUE(last_spilled > 0);
                        else
                                ASSERT_EQ(last_spilled, 0);
                        free(out.data);
                }
        spill_max = 0;
        ASSERT_EQ(stray_files(), 0);
        free(xz.data);
        free(image.data);
}

/* Damage in input that went through the spill file is found as anywhere else. */
TEST(spilled_input_damaged_truncated_or_failing) {
        Buffer image = make_big_image(), xz = compress(&image, BIG_BLOCK);
        size_t full = xz.size;
        size_t cuts[] = { full / 5, full / 3, full / 2, full - 100 };

        spill_max = XZ_SPILL_DEFAULT;
        for (unsigned threads = 2; threads <= 3; threads++) {
                for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
                        int r;

                        xz.data[cuts[i]] ^= 0x20;
                        r = decode(&xz, threads, SIZE_MAX, NULL);
                        xz.data[cuts[i]] ^= 0x20;
                        if (r != -EBADMSG)
                                test_fail(__FILE__, __LINE__, "byte %zu changed, threads=%u: %s", cuts[i],
                                          threads, r >= 0 ? "success" : strerror(-r));
                        xz.size = cuts[i];
                        r = decode(&xz, threads, SIZE_MAX, NULL);
                        xz.size = full;
                        if (r != -EPIPE && r != -EBADMSG)
                                test_fail(__FILE__, __LINE__, "cut at %zu, threads=%u: %s", cuts[i], threads,
                                          r >= 0 ? "success" : strerror(-r));
                        ASSERT_EQ(decode(&xz, threads, cuts[i], NULL), -EIO);
                }
        }
        spill_max = 0;
        ASSERT_EQ(stray_files(), 0);
        free(xz.data);
        free(image.data);
}

/* A spill file on a full file system: what it took is read back, the rest waits for memory as without
 * one; the pull is slower, not failed. The full file system is a tmpfs of one page (every write after
 * its first 4 KiB fails) or of two pieces (a write fails once the workers fall behind). */
TEST(spill_file_that_fills_up_falls_back_to_memory) {
        Buffer image = make_big_image(), xz = compress(&image, BIG_BLOCK);
        const char *sizes[] = { "size=4k", "size=128k" };
        char dir[PATH_MAX];

        if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
                test_note("skipped: a full file system for the spill file needs root (a tmpfs in a mount namespace)");
                goto out;
        }
        snprintf(dir, sizeof dir, "%s/full", test_tmpdir());
        ASSERT_OK(mkdir(dir, 0700));
        spill_dir = dir;
        spill_max = XZ_SPILL_DEFAULT;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                ASSERT_OK(mount("tmpfs", dir, "tmpfs", 0, sizes[i]));
                for (unsigned threads = 2; threads <= 3; threads++) {
                        Buffer out;

                        ASSERT_OK(decode(&xz, threads, SIZE_MAX, &out));
                        ASSERT_EQ(out.size, image.size);
                        ASSERT_TRUE(memcmp(out.data, image.data, image.size) == 0);
                        free(out.data);
                        test_note("tmpfs %s, %u workers: %llu bytes through the spill file, then %s", sizes[i],
                                  threads, (unsigned long long) last_spilled,
                                  last_spill_error < 0 ? strerror(-last_spill_error) : "no failure");
                        if (i == 0) {
                                ASSERT_EQ(last_spill_error, -ENOSPC);
                                ASSERT_TRUE(last_spilled <= 4096);
                        } else
                                ASSERT_TRUE(last_spill_error == 0 || last_spill_error == -ENOSPC);
                }
                ASSERT_OK(umount(dir));
        }
        ASSERT_OK(rmdir(dir));
        spill_dir = NULL;
        spill_max = 0;
out:
        free(xz.data);
        free(image.data);
}

TEST(not_xz) {
        static uint8_t bytes[] = "\xfd" "7zXZ\0\0\1 this is not a stream header";
        Buffer junk = { bytes, sizeof bytes };

        expect_error(&junk, -EBADMSG);
}
