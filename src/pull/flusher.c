/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Making a file durable while it is still being written.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "flusher.h"

struct Flusher {
        int fd;
        uint64_t step;
        uint64_t pending;       /* written since the last flush started */
        bool stop;
        unsigned flushes;
        pthread_t thread;
        pthread_mutex_t lock;
        pthread_cond_t changed;
};

static void *flusher_main(void *userdata) {
        Flusher *f = userdata;

        pthread_mutex_lock(&f->lock);
        for (;;) {
                while (f->pending < f->step && !f->stop)
                        pthread_cond_wait(&f->changed, &f->lock);
                if (f->stop)
                        break;
                f->pending = 0;
                pthread_mutex_unlock(&f->lock);
                /* Advisory: a failure here shows again in the final fsync, which is checked. */
                (void) fdatasync(f->fd);
                pthread_mutex_lock(&f->lock);
                f->flushes++;
        }
        pthread_mutex_unlock(&f->lock);
        return NULL;
}

int flusher_start(int fd, uint64_t step, Flusher **ret) {
        Flusher *f = calloc(1, sizeof *f);

        assert(ret);

        if (!f)
                return -ENOMEM;
        f->fd = fd;
        f->step = step ?: 1;
        pthread_mutex_init(&f->lock, NULL);
        pthread_cond_init(&f->changed, NULL);
        if (pthread_create(&f->thread, NULL, flusher_main, f) != 0) {
                pthread_cond_destroy(&f->changed);
                pthread_mutex_destroy(&f->lock);
                free(f);
                return -EAGAIN;
        }
        *ret = f;
        return 0;
}

void flusher_wrote(Flusher *f, uint64_t size) {
        if (!f)
                return;
        pthread_mutex_lock(&f->lock);
        f->pending += size;
        if (f->pending >= f->step)
                pthread_cond_signal(&f->changed);
        pthread_mutex_unlock(&f->lock);
}

unsigned flusher_count(Flusher *f) {
        unsigned n;

        assert(f);

        pthread_mutex_lock(&f->lock);
        n = f->flushes;
        pthread_mutex_unlock(&f->lock);
        return n;
}

unsigned flusher_stop(Flusher *f) {
        unsigned flushes;

        if (!f)
                return 0;
        pthread_mutex_lock(&f->lock);
        f->stop = true;
        pthread_cond_signal(&f->changed);
        pthread_mutex_unlock(&f->lock);
        pthread_join(f->thread, NULL);
        flushes = f->flushes;
        pthread_cond_destroy(&f->changed);
        pthread_mutex_destroy(&f->lock);
        free(f);
        return flushes;
}
