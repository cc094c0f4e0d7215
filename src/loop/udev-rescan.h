/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Closing a read-write descriptor of a disk without udevd re-reading its partition table.
 *
 * systemd-udevd watches block devices with inotify: when a read-write descriptor of a whole disk is
 * closed, it synthesizes a change and re-reads the partition table (BLKRRPART), which removes the
 * partitions the kernel has just found and adds them again, /dev/disk links included. A mount that
 * lands in that gap fails (seen in the initrd: sysroot.mount on /dev/disk/by-loop-ref/NAME-part1).
 * udevd skips the re-read while it cannot take LOCK_EX on the disk, so a read-only descriptor holds
 * LOCK_SH across the close until udevd has synthesized its change (as systemd's own loop devices are
 * locked while they are set up). udevd only sees a close where it has an inotify watch on the node,
 * which a fresh loop device gets once udevd has handled its first event: where the kernel lists no
 * such watch of udevd's after the close, there is nothing to wait for (in an initrd, 2 s of each boot).
 */
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

/**
 * Close *fd, a read-write descriptor of the whole disk device (/dev/loopN), so that udevd does not
 * re-read its partitions. Without udevd running, or without its watch on the node, just closes;
 * otherwise waits at most about 2 s for udevd.
 * Sets *fd to -1.
 */
void close_without_rescan(int *fd, const char *device);

/**
 * Whether the process has an inotify watch on the node (stat of it), as the kernel lists the watches
 * of its inotify descriptors in /proc/PID/fdinfo. @ret 1, 0, or negative errno (not readable)
 */
int process_watches_node(pid_t pid, const struct stat *node);
