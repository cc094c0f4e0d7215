/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * When to try a request again, and when to stop.
 */
#include <assert.h>

#include "macro.h"
#include "retry-policy.h"

bool retry_policy_next(RetryPolicy *p, unsigned retry_after, unsigned *ret_delay) {
        unsigned delay;

        assert(p);
        assert(ret_delay);

        if (p->retries >= p->max_retries)
                return false;
        if (retry_after > 0)
                delay = MIN(retry_after, (unsigned) RETRY_AFTER_MAX_SEC);
        else
                delay = MIN(1u << MIN(p->retries, 5u), (unsigned) RETRY_BACKOFF_MAX_SEC);
        /* The last wait may be shortened to what is left, never lengthened past the total. */
        if (p->waited >= p->max_wait_total)
                return false;
        delay = MIN(delay, p->max_wait_total - p->waited);
        p->retries++;
        p->waited += delay;
        *ret_delay = delay;
        return true;
}
