/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Creating directories with their parents.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "macro.h"
#include "mkdir.h"
#include "path-util.h"

static int mkdir_one(const char *p, mode_t mode) {
        struct stat st;

        if (mkdir(p, mode) >= 0)
                return 0;
        if (errno != EEXIST)
                return -errno;
        /* Something exists: fine only if it is a directory (or a link to one). */
        if (stat(p, &st) < 0)
                return -errno;
        return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int mkdir_parents(const char *path, mode_t mode) {
        _cleanup_free_ char *p = strdup(path);
        char *s;
        int r;

        assert(path);

        if (!p)
                return -ENOMEM;
        /* Each "/" after the first character ends a parent. */
        for (s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
                *s = 0;
                r = mkdir_one(p, mode);
                *s = '/';
                if (r < 0)
                        return r;
        }
        return 0;
}

int mkdir_p(const char *path, mode_t mode) {
        int r = mkdir_parents(path, mode);

        assert(path);

        if (r < 0)
                return r;
        return mkdir_one(path, mode);
}
