/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * When urlboot-lazy's background copy starts: once the initrd has mounted the root (or PID 1 has
 * switched), so that the initrd's reads have the network to themselves, and at a deadline in any case.
 *
 * Not later: the copy must be complete by the switch to a real root run by systemd, whose first
 * transaction stops the initrd's urlboot-lazy@ unit (its generated file is gone there, and with it
 * IgnoreOnIsolate=) and with it nbdkit. Starting after the boot's reads pause, which would spare the
 * real root's start-up the queue behind the copy's requests, needs that unit kept first
 * (docs/performance.md, boot-peers).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/** From the disk being ready, the copy starts after this long even if no root is mounted from it. */
#define LAZY_COPY_WAIT_USEC (120ULL * 1000 * 1000)

typedef struct LazyCopyClock {
        bool copy_now;                  /* --copy-now: no waiting */
        bool root_ready;                /* the root is mounted, or PID 1 has switched */
        uint64_t now_usec;              /* CLOCK_BOOTTIME */
        uint64_t ready_usec;            /* the disk was ready */
} LazyCopyClock;

/** Whether the copy starts now. */
bool lazy_copy_due(const LazyCopyClock *c);
