/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loop devices with a reference name.
 *
 * The reference is the loop device's lo_file_name, set atomically with LOOP_CONFIGURE, so udev sees
 * it in the very first event for the device and can link /dev/disk/by-loop-ref/REF. Partitions are
 * the kernel's (LO_FLAGS_PARTSCAN); where the kernel makes none (no partition-table support), they
 * are read from the GPT with libblkid and added with BLKPG.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "loop-ref.h"

typedef enum DirectIO { DIRECT_IO_AUTO, DIRECT_IO_YES, DIRECT_IO_NO } DirectIO;

typedef struct LoopAttachOptions {
        const char *ref;        /* NULL: none */
        bool read_only;
        DirectIO direct_io;
        bool force;             /* attach even if the file is attached already */
        bool no_partitions;     /* no partition scan (a device whose contents are not there yet) */
} LoopAttachOptions;

/**
 * Attach file to a free loop device.
 * @v ret_device     "/dev/loopN"
 * @v ret_read_only  whether it ended up read-only (asked, or the file is not writable)
 * @ret 0, -EEXIST (attached already), -ENAMETOOLONG (reference), other negative errno
 */
int loop_attach(const char *file, const LoopAttachOptions *o, char **ret_device, bool *ret_read_only);

/**
 * Detach a loop device ("/dev/loopN") or every loop device backed by a file; partitions added
 * with BLKPG are removed first. Detaching what is not attached succeeds.
 * @ret the number of devices detached, or negative errno
 */
int loop_detach(const char *device_or_file);

typedef struct LoopInfo {
        char device[32];        /* /dev/loopN */
        char ref[LOOP_REF_MAX + 1];
        char backing[4096];     /* the file, as the kernel records it (may be "") */
        bool read_only;
        bool direct_io;
        bool partscan;
        unsigned n_partitions;
        uint64_t backing_dev, backing_inode;
} LoopInfo;

/** Everything attached, in device order. @ret count or negative errno; *ret is malloc()ed. */
int loop_list(LoopInfo **ret);

/** Read one loop device's information. @ret 0, -ENXIO when nothing is attached. */
int loop_get_info(const char *device, LoopInfo *ret);

/** Add partitions from the GPT with BLKPG where the kernel made none. @ret how many were added. */
int loop_add_partitions(const char *device);
