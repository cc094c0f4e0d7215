/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * "urlboot-lazy status": every lazy disk's phase (syncing or local), copy progress, traffic and
 * timeline, from its state file and, while it copies, the kernel's live mirror status.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "lazy-state.h"

/** Bring a syncing state up to date from the kernel (mirror regions in sync, nbd traffic). */
void lazy_status_refresh(LazyState *s);

/** Human-readable block for one disk. */
void lazy_status_print(FILE *f, const LazyState *s, bool running);

/** One JSON object for one disk. */
void lazy_status_print_json(FILE *f, const LazyState *s, bool running);

/**
 * Print every disk under dir (or only those named).
 * @ret the number of disks shown, negative errno
 */
int lazy_status_show(const char *dir, char *const *names, bool json);
