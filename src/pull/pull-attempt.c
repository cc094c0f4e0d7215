/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What every part of an attempt uses (the network side, verification, placement): the reason for a failure,
 * and waiting that a cancellation ends. Its own file, so that pull-verify.c and pull-place.c need nothing
 * from pull-job.c, which calls them.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "pull-attempt.h"

int attempt_fail(Attempt *a, int r, const char *fmt, ...) {
        va_list ap;

        assert(a);
        assert(r < 0);
        assert(fmt);

        va_start(ap, fmt);
        vsnprintf(a->error, a->error_size, fmt, ap);
        va_end(ap);
        return r;
}

bool attempt_sleep(const PullOptions *o, unsigned seconds) {
        assert(o);

        for (unsigned i = 0; i < seconds * 10; i++) {
                if (o->cancel && *o->cancel)
                        return false;
                nanosleep(&(struct timespec) { .tv_nsec = 100 * 1000 * 1000 }, NULL);
        }
        return !(o->cancel && *o->cancel);
}
