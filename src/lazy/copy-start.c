/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>

#include "copy-start.h"

bool lazy_copy_due(const LazyCopyClock *c) {
        assert(c);

        return c->copy_now || c->root_ready || c->now_usec - c->ready_usec > LAZY_COPY_WAIT_USEC;
}
