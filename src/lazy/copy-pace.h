/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * How fast urlboot-lazy's background copy goes: the boot's reads come first, and the copy always ends.
 *
 * The boot reads the disk through the kernel's NBD connection, the copy through an NBD connection of its
 * own, and nbdkit serves both side by side; what they share is the server and the link. So:
 * - in the initrd, until the root is mounted (or PID 1 has switched, or LAZY_COPY_START_USEC passed), the
 *   copy waits: the initrd reads only a few megabytes, and has the network to itself;
 * - afterwards, while the boot read from the network within the last LAZY_BOOT_BUSY_USEC, the copy sends one
 *   request every LAZY_COPY_THROTTLE_USEC at most (so it goes on, a little, under any load);
 * - when the boot is quiet, as fast as the link goes.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define LAZY_COPY_START_USEC (120ULL * 1000 * 1000)     /* from the disk being ready */
#define LAZY_BOOT_BUSY_USEC (2ULL * 1000 * 1000)
#define LAZY_COPY_THROTTLE_USEC (1ULL * 1000 * 1000)

typedef struct LazyPace {
        bool copy_now;                  /* --copy-now: no waiting for the root */
        bool root_ready;                /* the root is mounted, or PID 1 has switched */
        uint64_t now_usec;              /* CLOCK_BOOTTIME */
        uint64_t ready_usec;            /* the disk was ready */
        uint64_t boot_read_usec;        /* the boot last read from the network (0: not yet) */
        uint64_t copy_usec;             /* the copy last sent a request (0: not yet) */
} LazyPace;

/** How long to wait before the copy's next request: 0 to send it now. */
uint64_t lazy_copy_wait_usec(const LazyPace *p);
