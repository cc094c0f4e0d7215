/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Closing a read-write descriptor of a disk without udevd re-reading its partition table.
 */
#include <assert.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "udev-rescan.h"

#define UDEV_CONTROL "/run/udev/control"
/* udevd handles the inotify event at once; under emulation it may take a while, never this long. */
#define WAIT_MSEC 2000

/* Listens to the kernel's uevents (group 1), which is where udevd's synthesized change shows. */
static int uevent_socket(void) {
        struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
        int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);

        if (fd < 0)
                return -1;
        if (bind(fd, (struct sockaddr *) &addr, sizeof addr) < 0) {
                close(fd);
                return -1;
        }
        return fd;
}

static long msec_since(const struct timespec *start) {
        struct timespec now;

        clock_gettime(CLOCK_MONOTONIC, &now);
        return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Whether a uevent is "change@/devices/.../NAME" for the disk itself (not one of its partitions). */
static int is_disk_change(const char *msg, size_t size, const char *name) {
        size_t n = strnlen(msg, size), len = strlen(name);

        return n > len + 8 && strncmp(msg, "change@", 7) == 0 && msg[n - len - 1] == '/' &&
               strcmp(msg + n - len, name) == 0;
}

static void wait_for_change(int sock, const char *name) {
        struct timespec start;
        char msg[8192];

        clock_gettime(CLOCK_MONOTONIC, &start);
        for (long left = WAIT_MSEC; left > 0; left = WAIT_MSEC - msec_since(&start)) {
                struct pollfd p = { .fd = sock, .events = POLLIN };
                ssize_t n;

                if (poll(&p, 1, (int) left) <= 0)
                        return;
                for (;;) {
                        struct sockaddr_nl from = {};
                        socklen_t from_len = sizeof from;

                        n = recvfrom(sock, msg, sizeof msg - 1, 0, (struct sockaddr *) &from, &from_len);
                        if (n <= 0)
                                break;
                        /* Only the kernel's own messages (port 0) count: udevd writes its change to sysfs,
                         * and the kernel sends it; nothing another process sends ends the wait. */
                        if (from_len != sizeof from || from.nl_pid != 0)
                                continue;
                        msg[n] = 0;
                        if (is_disk_change(msg, (size_t) n, name))
                                return;
                }
        }
}

void close_without_rescan(int *fd, const char *device) {
        const char *name;
        int ro, sock;

        assert(fd);
        assert(device);

        name = strrchr(device, '/');
        name = name ? name + 1 : device;
        if (*fd < 0)
                return;
        if (access(UDEV_CONTROL, F_OK) < 0) {
                close(*fd);
                *fd = -1;
                return;
        }
        ro = open(device, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (ro >= 0 && flock(ro, LOCK_SH) < 0) {
                close(ro);
                ro = -1;
        }
        sock = ro >= 0 ? uevent_socket() : -1;
        close(*fd);
        *fd = -1;
        if (sock >= 0) {
                wait_for_change(sock, name);
                close(sock);
        }
        if (ro >= 0)
                close(ro);
}
