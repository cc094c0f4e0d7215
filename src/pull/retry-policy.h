/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * When to try a request again, and when to stop: a number of extra attempts and a total time spent
 * waiting between them, so no server (Retry-After: 3600, or 503 forever) can hold a boot for hours.
 */
#pragma once

#include <stdbool.h>

/** A server's Retry-After is honoured up to this many seconds. */
#define RETRY_AFTER_MAX_SEC 60
/** Backoff without Retry-After: 1, 2, 4, ... seconds, at most this. */
#define RETRY_BACKOFF_MAX_SEC 30
/** Default total of the waits between the attempts for one URL. */
#define RETRY_WAIT_TOTAL_SEC 300

typedef struct RetryPolicy {
        unsigned max_retries;           /* extra attempts after the first */
        unsigned max_wait_total;        /* seconds, summed over all waits */
        unsigned retries;               /* extra attempts granted so far */
        unsigned waited;                /* seconds granted so far */
} RetryPolicy;

/**
 * Whether to try again after a passing failure, and after how long.
 * @v retry_after  what the server asked for (seconds, 0 if nothing)
 * @v ret_delay    seconds to wait first
 * @ret true to try again; false once the attempts or the waiting time are used up
 */
bool retry_policy_next(RetryPolicy *p, unsigned retry_after, unsigned *ret_delay);
