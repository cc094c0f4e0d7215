/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the byte pipe between the download and the unpacker: every byte through in order with
 * uneven writes and reads (the wake-up thresholds never leave a side waiting), the writer's status at
 * the end, the reader's abort releasing a writer blocked on a full ring. */
#include <pthread.h>
#include <stdlib.h>

#include "ring-buffer.h"
#include "tests.h"

#define CAPACITY 4096
#define TOTAL (3 * 1024 * 1024 + 17)

static unsigned char pattern(size_t i) {
        return (unsigned char) (i * 31 + i / 251);
}

typedef struct Writer {
        RingBuffer *ring;
        size_t total;
        int close_status;
        int result;             /* of the last write */
} Writer;

/* Uneven pieces, 1 byte to twice the capacity. */
static void *write_all(void *userdata) {
        Writer *w = userdata;
        unsigned char buf[2 * CAPACITY];
        size_t pos = 0, step = 0;

        while (pos < w->total) {
                size_t n = 1 + (step++ * 7919) % sizeof buf;

                if (n > w->total - pos)
                        n = w->total - pos;
                for (size_t i = 0; i < n; i++)
                        buf[i] = pattern(pos + i);
                w->result = ring_buffer_write(w->ring, buf, n);
                if (w->result < 0)
                        return NULL;
                pos += n;
        }
        ring_buffer_close(w->ring, w->close_status);
        return NULL;
}

TEST(every_byte_in_order) {
        Writer w = { .total = TOTAL };
        unsigned char buf[3000];
        size_t pos = 0, step = 0;
        pthread_t t;
        long n;

        ASSERT_OK(ring_buffer_new(CAPACITY, &w.ring));
        ASSERT_EQ(pthread_create(&t, NULL, write_all, &w), 0);
        while ((n = ring_buffer_read(w.ring, buf, 1 + (step++ * 104729) % sizeof buf)) > 0) {
                for (long i = 0; i < n; i++)
                        if (buf[i] != pattern(pos + (size_t) i))
                                test_fail(__FILE__, __LINE__, "byte %zu differs", pos + (size_t) i);
                pos += (size_t) n;
        }
        ASSERT_EQ(n, 0);
        ASSERT_EQ(pos, TOTAL);
        ASSERT_EQ(pthread_join(t, NULL), 0);
        ASSERT_EQ(w.result, 0);
        ring_buffer_free(w.ring);
}

/* Less than the reader's wake-up threshold, then the end: the reader still gets it, and the status. */
TEST(short_tail_and_status) {
        Writer w = { .total = 100, .close_status = -EIO };
        unsigned char buf[CAPACITY];
        pthread_t t;
        size_t got = 0;
        long n;

        ASSERT_OK(ring_buffer_new(CAPACITY, &w.ring));
        ASSERT_EQ(pthread_create(&t, NULL, write_all, &w), 0);
        /* In one read or two: the writer's first piece is 1 byte, and a reader may come between. */
        while ((n = ring_buffer_read(w.ring, buf, sizeof buf)) > 0)
                got += (size_t) n;
        ASSERT_EQ(got, (size_t) 100);
        ASSERT_EQ(n, -EIO);
        ASSERT_EQ(pthread_join(t, NULL), 0);
        ring_buffer_free(w.ring);
}

/* The reader gives up while the writer waits on a full ring: the writer returns the reader's status. */
TEST(abort_releases_the_writer) {
        Writer w = { .total = 10 * CAPACITY };
        unsigned char buf[10];
        pthread_t t;
        long n;

        ASSERT_OK(ring_buffer_new(CAPACITY, &w.ring));
        ASSERT_EQ(pthread_create(&t, NULL, write_all, &w), 0);
        /* The writer's first piece is 1 byte: a reader that comes after it gets just that, one that
         * comes before waits for a quarter of the ring and gets the 10 it asked for. */
        n = ring_buffer_read(w.ring, buf, sizeof buf);
        ASSERT_TRUE(n == 1 || n == (long) sizeof buf);
        ring_buffer_abort(w.ring, -ENOSPC);
        ASSERT_EQ(pthread_join(t, NULL), 0);
        ASSERT_EQ(w.result, -ENOSPC);
        ring_buffer_free(w.ring);
}
