/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The background copy's pace.
 */
#include <assert.h>

#include "copy-pace.h"

#define ROOT_POLL_USEC (500ULL * 1000)

uint64_t lazy_copy_wait_usec(const LazyPace *p) {
        uint64_t next;

        assert(p);

        if (!p->copy_now && !p->root_ready && p->now_usec - p->ready_usec < LAZY_COPY_START_USEC)
                return ROOT_POLL_USEC;
        if (p->boot_read_usec == 0 || p->now_usec - p->boot_read_usec >= LAZY_BOOT_BUSY_USEC || p->copy_usec == 0)
                return 0;
        next = p->copy_usec + LAZY_COPY_THROTTLE_USEC;
        return next > p->now_usec ? next - p->now_usec : 0;
}
