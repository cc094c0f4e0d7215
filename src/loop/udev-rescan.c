/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Closing a read-write descriptor of a disk without udevd re-reading its partition table.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "string-util.h"
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

static bool is_udevd(const char *pid) {
        _cleanup_free_ char *comm = NULL;
        char path[64];

        snprintf(path, sizeof path, "/proc/%.16s/comm", pid);
        return read_full_file(path, 64, &comm, NULL) >= 0 && streq(comm, "systemd-udevd\n");
}

/* Whether one of the lines of an fdinfo file is an inotify watch of the node. */
static bool fdinfo_watches_node(FILE *f, const struct stat *node) {
        char line[256];

        while (fgets(line, sizeof line, f)) {
                unsigned long long ino;
                unsigned sdev;

                /* the kernel's dev_t: major above bit 20 */
                if (sscanf(line, "inotify wd:%*x ino:%llx sdev:%x", &ino, &sdev) == 2 &&
                    ino == (unsigned long long) node->st_ino && sdev >> 20 == major(node->st_dev) &&
                    (sdev & 0xfffff) == minor(node->st_dev))
                        return true;
        }
        return false;
}

int process_watches_node(pid_t pid, const struct stat *node) {
        char path[64];
        struct dirent *de;
        bool found = false;
        DIR *d;

        assert(node);

        snprintf(path, sizeof path, "/proc/%d/fdinfo", (int) pid);
        d = opendir(path);
        if (!d)
                return -errno;
        while (!found && (de = readdir(d))) {
                int fd = de->d_name[0] == '.' ? -1 : openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
                FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

                if (!f) {
                        if (fd >= 0)
                                close(fd);
                        continue;
                }
                found = fdinfo_watches_node(f, node);
                fclose(f);
        }
        closedir(d);
        return found;
}

/* Whether systemd-udevd watches the node: 1, 0, or <0 when that cannot be read. */
static int udevd_watches(const struct stat *node) {
        struct dirent *de;
        int r = -ESRCH;
        DIR *d;

        d = opendir("/proc");
        if (!d)
                return -errno;
        while ((de = readdir(d)))
                if (de->d_name[0] >= '1' && de->d_name[0] <= '9' && is_udevd(de->d_name)) {
                        r = process_watches_node((pid_t) atoi(de->d_name), node);
                        break;
                }
        closedir(d);
        return r;
}

void close_without_rescan(int *fd, const char *device) {
        const char *name;
        struct stat node;
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
        /* A watch udevd has now was there at the close, or came after it and the wait is only spent; with none
         * now, none saw it (a fresh loop device gets its watch only once udevd has handled its first event). */
        if (sock >= 0 && (fstat(ro, &node) < 0 || udevd_watches(&node) != 0))
                wait_for_change(sock, name);
        if (sock >= 0)
                close(sock);
        if (ro >= 0)
                close(ro);
}
