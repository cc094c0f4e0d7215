/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for writing images with holes, in the calling thread and with a writer thread. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sparse-file.h"
#include "tests.h"

#define MiB (1024 * 1024)

/* 64 KiB of data, 1 MiB of zeros, one odd-sized run of data, 2 MiB + 100 of zeros at the end. */
static unsigned char *make_image(size_t *ret_size, size_t *ret_data) {
        size_t size = 64 * 1024 + MiB + 5000 + 2 * MiB + 100;
        unsigned char *p = calloc(1, size);

        ASSERT_TRUE(p);
        for (size_t i = 0; i < 64 * 1024; i++)
                p[i] = (unsigned char) (i * 7 + 1);
        for (size_t i = 0; i < 5000; i++)
                p[64 * 1024 + MiB + i] = (unsigned char) (i | 1);
        *ret_size = size;
        *ret_data = 64 * 1024 + 8192;   /* the odd run touches two 4 KiB blocks */
        return p;
}

static void check_file(int fd, const unsigned char *want, size_t size, size_t data) {
        unsigned char *got = malloc(size);
        struct stat st;

        ASSERT_TRUE(got);
        ASSERT_OK(fstat(fd, &st));
        ASSERT_EQ(st.st_size, size);
        ASSERT_EQ(pread(fd, got, size, 0), (ssize_t) size);
        ASSERT_TRUE(memcmp(got, want, size) == 0);
        /* Holes: no more than the data blocks (and some file system metadata) is allocated. */
        ASSERT_TRUE((size_t) st.st_blocks * 512 <= data + 64 * 1024);
        free(got);
}

/* Finishes s, checks the file against the image and frees everything. */
static void finish_and_check(SparseFile *s, int fd, unsigned char *image, size_t size, size_t data) {
        ASSERT_EQ(sparse_file_size(s), size);
        ASSERT_OK(sparse_file_finish(s));
        sparse_file_free(s);
        check_file(fd, image, size, data);
        close(fd);
        free(image);
}

static void write_in_pieces(bool writer, size_t buffer_size, size_t piece) {
        size_t size, data;
        unsigned char *image = make_image(&size, &data);
        int fd = test_new_file("image");
        SparseFile *s;

        ASSERT_OK(sparse_file_new(fd, buffer_size, &s));
        if (writer)
                ASSERT_OK(sparse_file_start_writer(s));
        for (size_t i = 0; i < size; i += piece)
                ASSERT_OK(sparse_file_write(s, image + i, i + piece <= size ? piece : size - i));
        finish_and_check(s, fd, image, size, data);
}

TEST(holes_in_calling_thread) {
        write_in_pieces(false, 64 * 1024, 1000);
        write_in_pieces(false, MiB, 3 * MiB);
        write_in_pieces(false, 1, 4096);        /* rounded up to one block */
}

TEST(holes_with_writer_thread) {
        write_in_pieces(true, 64 * 1024, 1000);
        write_in_pieces(true, MiB, 3 * MiB);
        write_in_pieces(true, 4096, 4095);
}

/* Decoders write in place: space() then commit() of less than was offered. */
TEST(space_and_commit) {
        size_t size, data, done = 0;
        unsigned char *image = make_image(&size, &data);
        int fd = test_new_file("image");
        SparseFile *s;

        ASSERT_OK(sparse_file_new(fd, 128 * 1024, &s));
        ASSERT_OK(sparse_file_start_writer(s));
        while (done < size) {
                void *room;
                size_t room_size, n;

                ASSERT_OK(sparse_file_space(s, &room, &room_size));
                ASSERT_TRUE(room_size > 0);
                n = room_size > 777 ? room_size - 777 : room_size;
                if (n > size - done)
                        n = size - done;
                memcpy(room, image + done, n);
                sparse_file_commit(s, n);
                done += n;
        }
        finish_and_check(s, fd, image, size, data);
}

/* Two writers on disjoint ranges of one file, as the xz decoder's workers do. */
TEST(seek_disjoint_ranges) {
        size_t size, data;
        unsigned char *image = make_image(&size, &data);
        size_t half = MiB + 4096;
        int fd = test_new_file("image");
        SparseFile *a, *b;

        ASSERT_OK(sparse_file_new(fd, 64 * 1024, &a));
        ASSERT_OK(sparse_file_new(fd, 64 * 1024, &b));
        ASSERT_OK(sparse_file_start_writer(b));
        ASSERT_OK(sparse_file_seek(b, half));
        ASSERT_OK(sparse_file_write(b, image + half, size - half));
        ASSERT_OK(sparse_file_write(a, image, half));
        ASSERT_OK(sparse_file_flush(a));
        ASSERT_OK(sparse_file_finish(b));
        sparse_file_free(a);
        sparse_file_free(b);
        check_file(fd, image, size, data);
        close(fd);
        free(image);
}

/* A write that fails in the writer thread is returned by a later call, never lost. */
TEST(writer_failure_is_reported) {
        char path[512];
        unsigned char data[8192];
        SparseFile *s;
        int fd, r = 0;

        memset(data, 0xa5, sizeof data);
        for (int writer = 0; writer <= 1; writer++) {
                snprintf(path, sizeof path, "%s/read-only", test_tmpdir());
                close(test_new_file("read-only"));
                fd = open(path, O_RDONLY | O_CLOEXEC);
                ASSERT_TRUE(fd >= 0);
                ASSERT_OK(sparse_file_new(fd, 4096, &s));
                if (writer)
                        ASSERT_OK(sparse_file_start_writer(s));
                for (int i = 0; i < 4 && r >= 0; i++)
                        r = sparse_file_write(s, data, sizeof data);
                if (r >= 0)
                        r = sparse_file_finish(s);
                ASSERT_EQ(r, -EBADF);
                /* Freeing after a failure stops the writer cleanly. */
                sparse_file_free(s);
                close(fd);
                r = 0;
        }
}

TEST(free_without_finish) {
        int fd = test_new_file("image");
        unsigned char data[4096];
        SparseFile *s;

        memset(data, 1, sizeof data);
        ASSERT_OK(sparse_file_new(fd, 4096, &s));
        ASSERT_OK(sparse_file_start_writer(s));
        ASSERT_OK(sparse_file_write(s, data, sizeof data));
        ASSERT_OK(sparse_file_write(s, data, sizeof data));
        sparse_file_free(s);
        close(fd);
}
