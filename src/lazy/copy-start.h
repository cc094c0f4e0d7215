/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * When urlboot-lazy's background copy starts. The boot's reads and the copy's share the NBD connection
 * (nbdkit's curl plugin serves one request at a time), so reads made while the copy runs queue behind
 * its 1 MiB requests: the copy waits until the root is mounted (or PID 1 has switched) and the boot
 * has paused its reads from the network for a while, and starts at a deadline in any case.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/** The boot's reads have paused this long: the copy may start. */
#define LAZY_COPY_QUIET_USEC (3ULL * 1000 * 1000)
/** Reads of at most this much in that time are a pause (a program that keeps reading a little). */
#define LAZY_COPY_QUIET_BYTES (256ULL * 1024)
/** From the root's mount, the copy starts after this long whatever the boot reads. */
#define LAZY_COPY_ROOT_WAIT_USEC (60ULL * 1000 * 1000)
/** From the disk being ready, the copy starts after this long even if no root is mounted from it. */
#define LAZY_COPY_WAIT_USEC (120ULL * 1000 * 1000)

typedef struct LazyCopyClock {
        bool copy_now;                  /* --copy-now: no waiting */
        uint64_t now_usec;              /* CLOCK_BOOTTIME, like the others */
        uint64_t ready_usec;            /* the disk was ready */
        uint64_t root_usec;             /* the root was mounted or PID 1 switched; 0: not yet */
        uint64_t read_moved_usec;       /* the boot last read more than LAZY_COPY_QUIET_BYTES */
} LazyCopyClock;

/** Whether the copy starts now. */
bool lazy_copy_due(const LazyCopyClock *c);
