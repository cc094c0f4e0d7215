/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The root's writes in memory.
 */
#include <errno.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <stdio.h>
#include <sys/statfs.h>

#include "root-writes.h"

int root_writes_get(const char *dir, RootWrites *ret) {
        struct statfs fs;
        struct stat st, parent;
        char up[4096];

        if (statfs(dir, &fs) < 0 || stat(dir, &st) < 0)
                return -errno;
        /* a tmpfs mounted on dir itself, not /run's tmpfs with an empty directory */
        if ((size_t) snprintf(up, sizeof up, "%s/..", dir) >= sizeof up)
                return -ENAMETOOLONG;
        if (stat(up, &parent) < 0)
                return -errno;
        if (fs.f_type != TMPFS_MAGIC || st.st_dev == parent.st_dev)
                return -ENOENT;
        *ret = (RootWrites) {
                .used = (uint64_t) (fs.f_blocks - fs.f_bfree) * fs.f_bsize,
                .max = (uint64_t) fs.f_blocks * fs.f_bsize,
        };
        return 0;
}
