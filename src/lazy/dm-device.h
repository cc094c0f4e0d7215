/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Device-mapper devices of one target each, through libdevmapper.
 *
 * Nodes: the kernel's devtmpfs makes /dev/dm-N at once, which is what these functions hand out, so
 * nothing waits for udev; libdevmapper also makes /dev/mapper/NAME for people. The library's own
 * messages are kept quiet: callers say what failed.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/**
 * Create and activate NAME with one target over sectors (512 bytes each).
 * @v ret_node  "/dev/dm-N"
 * @ret 0, -EEXIST, other negative errno
 */
int dm_device_create(const char *name, const char *uuid, uint64_t sectors, const char *type, const char *params,
                     bool read_only, char **ret_node);

/**
 * Swap the table of a live device: suspend (in-flight I/O completes), load, resume.
 * @ret 0 or negative errno (the device is resumed again on failure, with its old table)
 */
int dm_device_replace_table(const char *name, uint64_t sectors, const char *type, const char *params, bool read_only);

/** The first target's type and status line. */
int dm_device_status(const char *name, char **ret_type, char **ret_params);

/** Remove NAME (nothing may hold it). */
int dm_device_remove(const char *name);

/**
 * Make sure the kernel has target TYPE ("mirror"): asking for its version makes the kernel load its
 * module (dm-TYPE), as loading a table would. Done in the initrd, whose modules the real root may lack.
 * @ret 0, or -EIO when the kernel has no such target
 */
int dm_target_load(const char *type);

/** Whether NAME exists. */
bool dm_device_exists(const char *name);

/** The parameters of a "linear" table over all of device ("MAJ:MIN 0"); NULL when out of memory. */
char *linear_table_params(const char *device);
