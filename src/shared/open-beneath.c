/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Paths below a trusted directory, never through a symbolic link.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "macro.h"
#include "open-beneath.h"
#include "string-util.h"

/* openat2() fails with EAGAIN when a rename raced the lookup; a few more tries then give up. */
#define OPENAT2_ATTEMPTS 8

static int openat2_beneath(int dir_fd, const char *path, int flags) {
        struct open_how how = {
                .flags = (uint64_t) (flags | O_NOFOLLOW | O_CLOEXEC),
                .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
        };

        for (int i = 0; i < OPENAT2_ATTEMPTS; i++) {
                int fd = (int) syscall(SYS_openat2, dir_fd, path, &how, sizeof(how));

                if (fd >= 0)
                        return fd;
                if (errno != EAGAIN)
                        return -errno;
        }
        return -EAGAIN;
}

/* Without openat2(): one component at a time, each with O_NOFOLLOW, from dir_fd. */
static int walk_beneath(int dir_fd, const char *path, int flags) {
        _cleanup_close_ int cur = -1;
        const char *p = path;

        if (path[0] == '/')
                return -EXDEV;
        for (;;) {
                size_t n;
                char name[256];
                bool last;
                int fd;

                p += strspn(p, "/");
                n = strcspn(p, "/");
                if (n == 0)
                        return -EINVAL;
                if (n >= sizeof(name))
                        return -ENAMETOOLONG;
                memcpy(name, p, n);
                name[n] = 0;
                if (streq(name, ".."))
                        return -EXDEV;
                p += n;
                last = p[strspn(p, "/")] == 0;
                fd = openat(cur >= 0 ? cur : dir_fd, name,
                            (last ? flags : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) {
                        struct stat st;
                        int r = -errno;

                        /* O_NOFOLLOW on a link says ELOOP, or ENOTDIR when O_DIRECTORY is asked for */
                        if (r == -ENOTDIR && fstatat(cur >= 0 ? cur : dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) >= 0 &&
                            S_ISLNK(st.st_mode))
                                return -ELOOP;
                        return r;
                }
                if (cur >= 0)
                        (void) close(cur);
                cur = fd;
                if (last)
                        return TAKE_FD(cur);
        }
}

/* O_DIRECTORY on a link with O_NOFOLLOW says ENOTDIR: a link there is -ELOOP like one on the way. */
static int enotdir_or_link(int (*resolve)(int, const char *, int), int dir_fd, const char *path) {
        _cleanup_close_ int fd = resolve(dir_fd, path, O_PATH);
        struct stat st;

        if (fd >= 0 && fstat(fd, &st) >= 0 && S_ISLNK(st.st_mode))
                return -ELOOP;
        return -ENOTDIR;
}

static int open_with(int (*resolve)(int, const char *, int), int dir_fd, const char *path, int flags) {
        int fd = resolve(dir_fd, path, flags);

        return fd == -ENOTDIR ? enotdir_or_link(resolve, dir_fd, path) : fd;
}

int open_beneath(int dir_fd, const char *path, int flags) {
        int fd;

        assert(dir_fd >= 0 || dir_fd == AT_FDCWD);
        assert(path);

        if (path[0] == '/')
                return -EXDEV;
        fd = open_with(openat2_beneath, dir_fd, path, flags);
        if (fd == -ENOSYS)
                fd = open_with(walk_beneath, dir_fd, path, flags);
        return fd;
}

int open_beneath_walk(int dir_fd, const char *path, int flags) {
        assert(dir_fd >= 0 || dir_fd == AT_FDCWD);
        assert(path);

        return open_with(walk_beneath, dir_fd, path, flags);
}
