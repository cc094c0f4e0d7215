/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Removing a directory tree, relative to directory file descriptors.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "rm-rf.h"
#include "string-util.h"

static int rm_rf_children(int fd, dev_t dev);

/* name below dir_fd, whose lstat() is st: a directory is emptied first, on the same file system only. */
static int remove_entry(int dir_fd, const char *name, const struct stat *st, dev_t dev) {
        int r = 0;

        if (S_ISDIR(st->st_mode)) {
                _cleanup_close_ int fd = -1;
                struct stat again;

                if (st->st_dev != dev)
                        return -EXDEV; /* a mount point: never descend into another file system */
                fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0)
                        return errno == ENOENT ? 0 : -errno;
                /* It must still be the directory we looked at, not something put in its place. */
                if (fstat(fd, &again) < 0)
                        return -errno;
                if (again.st_dev != st->st_dev || again.st_ino != st->st_ino)
                        return -ESTALE;
                r = rm_rf_children(TAKE_FD(fd), dev);
                if (unlinkat(dir_fd, name, AT_REMOVEDIR) < 0 && errno != ENOENT && r >= 0)
                        r = -errno;
                return r;
        }
        if (unlinkat(dir_fd, name, 0) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

/* Takes fd. Removes everything in the directory, going on past failures; the first one is returned. */
static int rm_rf_children(int fd, dev_t dev) {
        DIR *d = fdopendir(fd);
        struct dirent *e;
        int r = 0;

        if (!d) {
                r = -errno;
                (void) close(fd);
                return r;
        }
        while ((errno = 0, e = readdir(d))) {
                struct stat st;
                int k;

                if (streq(e->d_name, ".") || streq(e->d_name, ".."))
                        continue;
                if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        if (errno != ENOENT && r >= 0)
                                r = -errno;
                        continue;
                }
                k = remove_entry(dirfd(d), e->d_name, &st, dev);
                if (k < 0 && r >= 0)
                        r = k;
        }
        if (errno != 0 && r >= 0)
                r = -errno;
        closedir(d);
        return r;
}

int rm_rf_at(int dir_fd, const char *name) {
        struct stat st;

        assert(name);

        if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        return remove_entry(dir_fd, name, &st, st.st_dev);
}

int rm_rf(const char *path) {
        assert(path);

        return rm_rf_at(AT_FDCWD, path);
}
