/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The kernel's nbd devices, as far as urlboot-lazy needs them: a free one, its size and traffic, and
 * the disconnect (connecting is nbd-client's job).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/** A device with nothing connected, e.g. "/dev/nbd0". @ret 0, -ENODEV (none, or no nbd module) */
int nbd_find_free(char **ret);

/** Whether a client holds the device (sysfs "pid"). */
bool nbd_is_connected(const char *device);

/** Bytes read from the device so far (sysfs "stat": sectors read × 512). */
int nbd_read_bytes(const char *device, uint64_t *ret);

/**
 * Disconnect the device open as fd and drop its configuration, as "nbd-client -d" does with ioctls
 * (NBD_DISCONNECT, NBD_CLEAR_SOCK; netlink-configured devices accept both): once the last descriptor is
 * closed the device is free again (no "pid" in sysfs, size 0).
 */
int nbd_disconnect(int fd);

/** Wait up to timeout_ms for the device to be free. @ret 0, -ETIMEDOUT */
int nbd_wait_free(const char *device, unsigned timeout_ms);

/** A block device's size in bytes (BLKGETSIZE64). */
int block_device_size(const char *device, uint64_t *ret);
