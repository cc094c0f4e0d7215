/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA on a mount point of the initrd's root.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "nbdkit-ca.h"

#define CA_FILE_MAX (1024U * 1024U)

static int copy_to_tmpfs(NbdkitCa *ca, const char *pem, size_t size) {
        _cleanup_close_ int fd = -EBADF;
        int r;

        if (mkdir(ca->dir, 0700) < 0 && errno != EEXIST)
                return -errno;
        if (mount("urlboot-lazy-ca", ca->dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=2m,mode=0700") < 0)
                return -errno;
        ca->dir_fd = open(ca->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        fd = open(ca->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
        r = ca->dir_fd < 0 || fd < 0 ? -errno : write_all(fd, pem, size);
        if (r < 0) {
                (void) umount2(ca->dir, MNT_DETACH);
                (void) rmdir(ca->dir);
        }
        return r;
}

int nbdkit_ca_prepare(NbdkitCa *ca, const char *path, bool initrd, const char *name) {
        _cleanup_free_ char *pem = NULL;
        size_t size;
        int r;

        assert(ca);
        assert(path);

        *ca = (NbdkitCa) { .dir_fd = -EBADF };
        /* read it now in any case: a missing or oversized file is an error before nbdkit starts */
        r = read_full_file(path, CA_FILE_MAX, &pem, &size);
        if (r < 0)
                return r;
        if (!initrd) {
                ca->file = strdup(path);
                return ca->file ? 0 : -ENOMEM;
        }
        if (asprintf(&ca->dir, NBDKIT_CA_DIR_PREFIX "%s.ca", name) < 0)
                return -ENOMEM;
        if (asprintf(&ca->file, "%s/ca.pem", ca->dir) < 0)
                return -ENOMEM;
        return copy_to_tmpfs(ca, pem, size);
}

void nbdkit_ca_done(NbdkitCa *ca) {
        char path[64];

        assert(ca);

        /* We may live in the real root by now: the mount is reached through the descriptor. */
        if (ca->dir_fd >= 0) {
                snprintf(path, sizeof path, "/proc/self/fd/%d", ca->dir_fd);
                (void) umount2(path, MNT_DETACH);
                (void) close(ca->dir_fd);
        }
        free(ca->dir);
        free(ca->file);
        *ca = (NbdkitCa) { .dir_fd = -EBADF };
}
