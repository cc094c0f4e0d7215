/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * nbd devices through sysfs and ioctls.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/nbd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "nbd-device.h"
#include "string-util.h"

/* "/dev/nbd3" → "nbd3" */
static const char *nbd_name(const char *device) {
        const char *n = startswith(device, "/dev/");

        return n && startswith(n, "nbd") ? n : NULL;
}

bool nbd_is_connected(const char *device) {
        const char *name = nbd_name(device);
        char path[128];

        assert(device);

        if (!name)
                return false;
        snprintf(path, sizeof path, "/sys/block/%s/pid", name);
        return access(path, F_OK) == 0;
}

int nbd_find_free(char **ret) {
        int best = -1;
        struct dirent *de;
        DIR *d;

        assert(ret);

        d = opendir("/sys/block");
        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                char device[300];
                const char *p = startswith(de->d_name, "nbd");
                char *end;
                long n;

                if (!p || !*p)
                        continue;
                n = strtol(p, &end, 10);
                if (*end || n < 0 || n > 1 << 20)
                        continue;
                snprintf(device, sizeof device, "/dev/%s", de->d_name);
                if (!nbd_is_connected(device) && (best < 0 || n < best))
                        best = (int) n;
        }
        closedir(d);
        if (best < 0)
                return -ENODEV;
        if (asprintf(ret, "/dev/nbd%d", best) < 0)
                return -ENOMEM;
        return 0;
}

int nbd_read_bytes(const char *device, uint64_t *ret) {
        const char *name = nbd_name(device);
        _cleanup_free_ char *s = NULL;
        unsigned long long ios, merges, sectors;
        char path[128];
        int r;

        assert(device);
        assert(ret);

        if (!name)
                return -EINVAL;
        snprintf(path, sizeof path, "/sys/block/%s/stat", name);
        r = read_full_file(path, 4096, &s, NULL);
        if (r < 0)
                return r;
        if (sscanf(s, "%llu %llu %llu", &ios, &merges, &sectors) != 3)
                return -EBADMSG;
        *ret = (uint64_t) sectors * 512;
        return 0;
}

int nbd_disconnect(int fd) {
        if (ioctl(fd, NBD_DISCONNECT) < 0)
                return -errno;
        /* Without this the kernel keeps the dead connection's configuration until a netlink disconnect. */
        (void) ioctl(fd, NBD_CLEAR_SOCK);
        return 0;
}

int nbd_wait_free(const char *device, unsigned timeout_ms) {
        assert(device);

        for (unsigned waited = 0; nbd_is_connected(device); waited += 10) {
                if (waited >= timeout_ms)
                        return -ETIMEDOUT;
                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
        }
        return 0;
}

int block_device_size(const char *device, uint64_t *ret) {
        _cleanup_close_ int fd = open(device, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        uint64_t size;

        assert(device);
        assert(ret);

        if (fd < 0)
                return -errno;
        if (ioctl(fd, BLKGETSIZE64, &size) < 0)
                return -errno;
        *ret = size;
        return 0;
}
