/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>

#include "copy-start.h"

bool lazy_copy_due(const LazyCopyClock *c) {
        assert(c);

        if (c->copy_now || c->now_usec - c->ready_usec > LAZY_COPY_WAIT_USEC)
                return true;
        if (c->root_usec == 0)
                return false;
        return c->now_usec - c->read_moved_usec >= LAZY_COPY_QUIET_USEC ||
               c->now_usec - c->root_usec >= LAZY_COPY_ROOT_WAIT_USEC;
}
