/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The Linux calls behind directory quotas: project IDs through FS_IOC_FSGETXATTR/FS_IOC_FSSETXATTR and
 * project quota records through quotactl_fd(2) (quotactl(2) on the block device where that is missing).
 *
 * Functions return 0 or a negative errno and never log.
 */
#pragma once

#include <stdint.h>
#include <sys/quota.h>
#include <sys/statvfs.h>

/** Quota blocks are 1 KiB (QIF_DQBLKSIZE), whatever the file system's block size. */
#define QUOTA_BLOCK_SIZE UINT64_C(1024)

/** The inode's project ID and FS_XFLAG_* flags. */
int quota_fs_get_project(int fd, uint32_t *ret_xflags, uint32_t *ret_project_id);

/**
 * Give one inode the project ID; directories also get FS_XFLAG_PROJINHERIT, so what is created in them
 * inherits it. Nothing is written when the inode already has both.
 */
int quota_fs_set_project(int fd, uint32_t project_id);

/**
 * The same for the directory, every directory and every regular file below it; symbolic links, devices,
 * sockets and FIFOs are left alone (as v258 does). Mount points below are crossed.
 */
int quota_fs_set_project_recursive(int dir_fd, uint32_t project_id);

/**
 * quotactl(cmd, PRJQUOTA, id) for the file system of fd: quotactl_fd(), and when the kernel or file system
 * says "not supported", quotactl() on the block device /dev/block/MAJ:MIN (-ENODEV when there is none).
 * @v cmd  Q_GETQUOTA or Q_SETQUOTA
 */
int quota_fs_quotactl(int fd, int cmd, uint32_t project_id, struct dqblk *dq);

/**
 * statvfs() of the directory's parent, and the parent's FS_XFLAG_* flags (a parent with
 * FS_XFLAG_PROJINHERIT would report its own project's limit as the file system's size).
 */
int quota_fs_parent_statvfs(int fd, uint32_t *ret_parent_xflags, struct statvfs *ret);
