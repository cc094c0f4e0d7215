/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "random-util.h"

#include <errno.h>
#include <stdatomic.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004        /* Linux 5.6 */
#endif

/* splitmix64's finalizer: spreads the few changing bits of the fallback over all 64. */
static uint64_t mix64(uint64_t x) {
        x ^= x >> 30;
        x *= UINT64_C(0xbf58476d1ce4e5b9);
        x ^= x >> 27;
        x *= UINT64_C(0x94d049bb133111eb);
        return x ^ (x >> 31);
}

static uint64_t clock_ns(clockid_t id) {
        struct timespec ts = {};

        (void) clock_gettime(id, &ts);
        return (uint64_t) ts.tv_sec * UINT64_C(1000000000) + (uint64_t) ts.tv_nsec;
}

uint64_t random_u64_insecure(void) {
        static atomic_uint_fast64_t counter;
        uint64_t v;

        if (getrandom(&v, sizeof v, GRND_INSECURE) == (ssize_t) sizeof v)
                return v;
        /* Kernels before 5.6 refuse the flag with EINVAL; NONBLOCK fails with EAGAIN until the pool is ready. */
        if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t) sizeof v)
                return v;
        v = ((uint64_t) getpid() << 32) ^ atomic_fetch_add(&counter, 1);
        return mix64(v ^ mix64(clock_ns(CLOCK_MONOTONIC)) ^ mix64(clock_ns(CLOCK_REALTIME)));
}
