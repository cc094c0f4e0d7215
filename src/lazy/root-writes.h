/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The writes a verified, read-only root keeps in memory: systemd.volatile=overlay's upper layer.
 *
 * systemd-volatile-root mounts a tmpfs, makes it the upper layer of an overlay over /sysroot and then
 * unmounts it from its path (the overlay keeps it), so it has no path to look at afterwards. But statfs() of
 * an overlay reports its upper layer's file system: the root's own statfs is the tmpfs's.
 */
#pragma once

#include <stdint.h>

typedef struct RootWrites {
        uint64_t used;          /* bytes written over the root, in RAM */
        uint64_t max;           /* the upper file system's size: the bound (25% of RAM by systemd's default) */
} RootWrites;

/**
 * The writes under the overlay mounted at root ("/").
 * @ret 0, -ENOENT when root is no overlay (a root without systemd.volatile=overlay), negative errno
 */
int root_writes_get(const char *root, RootWrites *ret);
