/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Removing a directory tree.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

#include "rm-rf.h"

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw) {
        return remove(path) < 0 && errno != ENOENT ? -errno : 0;
}

int rm_rf(const char *path) {
        struct stat st;
        int r;

        if (lstat(path, &st) < 0)
                return errno == ENOENT ? 0 : -errno;
        r = nftw(path, remove_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
        if (r < 0)
                return -errno;
        return r;
}
