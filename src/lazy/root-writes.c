/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The root's writes in memory.
 */
#include <assert.h>
#include <errno.h>
#include <linux/magic.h>
#include <sys/statfs.h>

#include "root-writes.h"

int root_writes_get(const char *root, RootWrites *ret) {
        struct statfs fs;

        assert(root);
        assert(ret);

        if (statfs(root, &fs) < 0)
                return -errno;
        if (fs.f_type != OVERLAYFS_SUPER_MAGIC)
                return -ENOENT;
        /* an overlay's statfs is its upper layer's */
        *ret = (RootWrites) {
                .used = (uint64_t) (fs.f_blocks - fs.f_bfree) * fs.f_bsize,
                .max = (uint64_t) fs.f_blocks * fs.f_bsize,
        };
        return 0;
}
