/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The writes a verified, read-only root keeps in memory: the tmpfs under systemd.volatile=overlay.
 */
#pragma once

#include <stdint.h>

/** Where systemd-volatile-root (overlay mode) mounts the tmpfs holding the overlay's upper layer. */
#define ROOT_WRITES_DIR "/run/systemd/overlay-sysroot"

typedef struct RootWrites {
        uint64_t used;          /* bytes written over the root, in RAM */
        uint64_t max;           /* the tmpfs's size: the bound (25% of RAM by systemd's default) */
} RootWrites;

/**
 * The overlay's tmpfs under dir (ROOT_WRITES_DIR).
 * @ret 0, -ENOENT when dir is no tmpfs mount point (no overlay over the root), negative errno
 */
int root_writes_get(const char *dir, RootWrites *ret);
