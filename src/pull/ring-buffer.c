/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A bounded byte pipe between two threads.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "ring-buffer.h"

struct RingBuffer {
        pthread_mutex_t lock;
        pthread_cond_t readable, writable;
        unsigned char *data;
        size_t capacity, head, used;
        size_t wake_at;         /* wake a waiting reader (writer) once this much is readable (free) */
        bool reader_waits, writer_waits;
        bool closed;
        int close_status;       /* the writer's */
        int abort_status;       /* the reader's, 0 while it reads on */
};

int ring_buffer_new(size_t capacity, RingBuffer **ret) {
        RingBuffer *b = calloc(1, sizeof *b);

        assert(ret);

        if (!b)
                return -ENOMEM;
        b->data = malloc(capacity);
        if (!b->data) {
                free(b);
                return -ENOMEM;
        }
        b->capacity = capacity;
        b->wake_at = MAX(capacity / 4, (size_t) 1);
        pthread_mutex_init(&b->lock, NULL);
        pthread_cond_init(&b->readable, NULL);
        pthread_cond_init(&b->writable, NULL);
        *ret = b;
        return 0;
}

void ring_buffer_free(RingBuffer *b) {
        if (!b)
                return;
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->readable);
        pthread_cond_destroy(&b->writable);
        free(b->data);
        free(b);
}

int ring_buffer_write(RingBuffer *b, const void *data, size_t size) {
        const unsigned char *p = data;
        int r = 0;

        assert(b);
        assert(data || size == 0);

        pthread_mutex_lock(&b->lock);
        while (size > 0) {
                size_t tail, n;

                /* Once full, wait until a quarter is free: fewer, larger steps, fewer wake-ups. */
                if (b->used == b->capacity)
                        while (b->capacity - b->used < b->wake_at && b->abort_status == 0) {
                                b->writer_waits = true;
                                pthread_cond_wait(&b->writable, &b->lock);
                        }
                b->writer_waits = false;
                if (b->abort_status != 0) {
                        r = b->abort_status;
                        break;
                }

                tail = (b->head + b->used) % b->capacity;
                n = MIN(size, b->capacity - b->used);
                n = MIN(n, b->capacity - tail);
                memcpy(b->data + tail, p, n);
                b->used += n;
                p += n;
                size -= n;
                if (b->reader_waits && b->used >= b->wake_at)
                        pthread_cond_signal(&b->readable);
        }
        pthread_mutex_unlock(&b->lock);
        return r;
}

void ring_buffer_close(RingBuffer *b, int status) {
        assert(b);

        pthread_mutex_lock(&b->lock);
        b->closed = true;
        b->close_status = status;
        pthread_cond_broadcast(&b->readable);
        pthread_mutex_unlock(&b->lock);
}

long ring_buffer_read(RingBuffer *b, void *data, size_t size) {
        long r;

        assert(b);
        assert(data || size == 0);

        pthread_mutex_lock(&b->lock);
        /* Once empty, wait for a quarter of the capacity (or the end). */
        if (b->used == 0)
                while (b->used < b->wake_at && !b->closed) {
                        b->reader_waits = true;
                        pthread_cond_wait(&b->readable, &b->lock);
                }
        b->reader_waits = false;

        if (b->used == 0)
                r = b->close_status;
        else {
                size_t n = MIN(size, b->used);
                n = MIN(n, b->capacity - b->head);
                memcpy(data, b->data + b->head, n);
                b->head = (b->head + n) % b->capacity;
                b->used -= n;
                r = (long) n;
                if (b->writer_waits && b->capacity - b->used >= b->wake_at)
                        pthread_cond_signal(&b->writable);
        }
        pthread_mutex_unlock(&b->lock);
        return r;
}

void ring_buffer_abort(RingBuffer *b, int status) {
        assert(b);

        pthread_mutex_lock(&b->lock);
        b->abort_status = status < 0 ? status : -ECANCELED;
        pthread_cond_broadcast(&b->writable);
        pthread_mutex_unlock(&b->lock);
}
