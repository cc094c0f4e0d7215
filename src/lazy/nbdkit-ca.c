/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA in nbdkit's own mount namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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

int nbdkit_ca_prepare(NbdkitCa *ca, const char *path, const char *state_dir, const char *name) {
        int r;

        *ca = (NbdkitCa) {};
        r = read_full_file(path, CA_FILE_MAX, &ca->pem, &ca->size);
        if (r < 0)
                return r;
        if (asprintf(&ca->dir, "%s/%s.ca", state_dir, name) < 0 || asprintf(&ca->file, "%s/ca.pem", ca->dir) < 0)
                return -ENOMEM;
        if (mkdir(ca->dir, 0700) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

int nbdkit_ca_place(const NbdkitCa *ca) {
        _cleanup_close_ int fd = -EBADF;

        if (unshare(CLONE_NEWNS) < 0)
                return -errno;
        /* nothing mounted here reaches the rest of the system, and the switch does not reach us */
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                return -errno;
        if (mount("urlboot-lazy-ca", ca->dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=2m,mode=0700") < 0)
                return -errno;
        fd = open(ca->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
        if (fd < 0)
                return -errno;
        return write_all(fd, ca->pem, ca->size);
}

void nbdkit_ca_done(NbdkitCa *ca) {
        if (ca->dir)
                (void) rmdir(ca->dir);
        free(ca->pem);
        free(ca->dir);
        free(ca->file);
        *ca = (NbdkitCa) {};
}
