/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * "urlboot-lazy status": every lazy disk's phase (remote, copying, local), copy progress, traffic and
 * timeline, from its state file; and what the root's writes hold in memory.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "lazy-state.h"
#include "root-writes.h"

/** Human-readable block for one disk. */
void lazy_status_print(FILE *f, const LazyState *s, bool running);

/** One JSON object for one disk; writes NULL when the root has no overlay (its "rootWrites" is null). */
void lazy_status_print_json(FILE *f, const LazyState *s, bool running, const RootWrites *writes);

/** The line on the root's writes (the overlay's tmpfs over a verified root). */
void lazy_status_print_root_writes(FILE *f, const RootWrites *writes);

/**
 * Print every disk under dir (or only those named), and the root's writes when root ("/") is an overlay.
 * @ret the number of disks shown, negative errno
 */
int lazy_status_show(const char *dir, const char *root, char *const *names, bool json);
