/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the thread that makes a file durable while it is written. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "flusher.h"
#include "sparse-file.h"
#include "tests.h"

/* Waits up to 10 s for the flusher to have flushed n times; the count then. */
static unsigned wait_for_count(Flusher *f, unsigned n) {
        for (int i = 0; i < 1000 && flusher_count(f) < n; i++)
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        return flusher_count(f);
}

static void write_block(Flusher *f, int fd, size_t i) {
        unsigned char block[4096];

        memset(block, 0x5a, sizeof block);
        ASSERT_EQ(pwrite(fd, block, sizeof block, (off_t) (i * sizeof block)), (ssize_t) sizeof block);
        flusher_wrote(f, sizeof block);
}

TEST(flushes_each_step) {
        int fd = test_new_file("image");
        Flusher *f;

        ASSERT_OK(flusher_start(fd, 2 * 4096, &f));
        write_block(f, fd, 0);
        write_block(f, fd, 1);
        ASSERT_EQ(wait_for_count(f, 1), 1);
        write_block(f, fd, 2);
        write_block(f, fd, 3);
        ASSERT_EQ(wait_for_count(f, 2), 2);
        write_block(f, fd, 4);          /* half a step: no flush */
        ASSERT_EQ(flusher_stop(f), 2);
        close(fd);
}

TEST(stop_without_writes) {
        int fd = test_new_file("image");
        Flusher *f;

        ASSERT_OK(flusher_start(fd, 4096, &f));
        ASSERT_EQ(flusher_stop(f), 0);
        close(fd);
}

TEST(null_is_fine) {
        flusher_wrote(NULL, 4096);
        ASSERT_EQ(flusher_stop(NULL), 0);
}

/* A SparseFile reports what it writes, not the holes it skips, with and without a writer thread. */
TEST(sparse_file_reports_written_bytes) {
        unsigned char *data = calloc(1, 8 * 4096);

        ASSERT_TRUE(data);
        memset(data, 1, 4096);                  /* one data block, seven zero blocks */
        for (int writer = 0; writer <= 1; writer++) {
                int fd = test_new_file("image");
                SparseFile *s;
                Flusher *f;

                ASSERT_OK(flusher_start(fd, 2 * 4096, &f));
                ASSERT_OK(sparse_file_new(fd, 8 * 4096, &s));
                if (writer)
                        ASSERT_OK(sparse_file_start_writer(s));
                sparse_file_set_flusher(s, f);
                ASSERT_OK(sparse_file_write(s, data, 8 * 4096));
                ASSERT_OK(sparse_file_finish(s));
                ASSERT_EQ(flusher_count(f), 0);         /* 4 KiB written: half a step */
                ASSERT_OK(sparse_file_write(s, data, 4096));
                ASSERT_OK(sparse_file_finish(s));
                ASSERT_EQ(wait_for_count(f, 1), 1);
                sparse_file_free(s);
                ASSERT_EQ(flusher_stop(f), 1);
                close(fd);
        }
        free(data);
}
