/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loop devices with a reference name.
 */
#include <assert.h>
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "loop-device.h"
#include "udev-rescan.h"
#include "macro.h"
#include "string-util.h"

#define ATTACH_TRIES 64

/* "/dev/loop7" → 7 */
static int loop_number(const char *device) {
        const char *p = startswith(device, "/dev/loop");
        char *end;
        long n;

        if (!p || !*p)
                return -EINVAL;
        n = strtol(p, &end, 10);
        if (*end || n < 0 || n > 1 << 20)
                return -EINVAL;
        return (int) n;
}

static int read_sysfs_line(const char *path, char *buf, size_t size) {
        _cleanup_free_ char *s = NULL;
        size_t n;
        int r;

        r = read_full_file(path, 64 * 1024, &s, &n);
        if (r < 0)
                return r;
        while (n > 0 && s[n - 1] == '\n')
                s[--n] = 0;
        snprintf(buf, size, "%s", s);
        return 0;
}

/* Partitions the kernel knows for loopN: /sys/block/loopN/loopNpM. */
static int count_partitions(int nr, int *ret_numbers, int max) {
        char dir[64], prefix[32];
        struct dirent *de;
        int n = 0;
        DIR *d;

        snprintf(dir, sizeof dir, "/sys/block/loop%d", nr);
        snprintf(prefix, sizeof prefix, "loop%dp", nr);
        d = opendir(dir);
        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                const char *p = startswith(de->d_name, prefix);
                if (p && *p) {
                        if (ret_numbers && n < max)
                                ret_numbers[n] = atoi(p);
                        n++;
                }
        }
        closedir(d);
        return n;
}

int loop_get_info(const char *device, LoopInfo *ret) {
        struct loop_info64 info = {};
        _cleanup_close_ int fd = -1;
        char path[128];
        int nr = loop_number(device);

        assert(device);
        assert(ret);

        if (nr < 0)
                return nr;
        fd = open(device, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (ioctl(fd, LOOP_GET_STATUS64, &info) < 0)
                return errno == ENXIO ? -ENXIO : -errno;

        *ret = (LoopInfo) {
                .read_only = info.lo_flags & LO_FLAGS_READ_ONLY,
                .direct_io = info.lo_flags & LO_FLAGS_DIRECT_IO,
                .partscan = info.lo_flags & LO_FLAGS_PARTSCAN,
                .backing_dev = info.lo_device,
                .backing_inode = info.lo_inode,
        };
        snprintf(ret->device, sizeof ret->device, "/dev/loop%d", nr);
        memcpy(ret->ref, info.lo_file_name, LOOP_REF_MAX);
        ret->ref[LOOP_REF_MAX] = 0;
        snprintf(path, sizeof path, "/sys/block/loop%d/loop/backing_file", nr);
        if (read_sysfs_line(path, ret->backing, sizeof ret->backing) < 0)
                ret->backing[0] = 0;
        ret->n_partitions = (unsigned) MAX(count_partitions(nr, NULL, 0), 0);
        return 0;
}

static int cmp_info(const void *a, const void *b) {
        return loop_number(((const LoopInfo *) a)->device) - loop_number(((const LoopInfo *) b)->device);
}

int loop_list(LoopInfo **ret) {
        LoopInfo *list = NULL;
        struct dirent *de;
        int n = 0;
        DIR *d;

        assert(ret);

        d = opendir("/sys/block");
        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                char dev[300], path[320];
                LoopInfo info, *l;

                if (!startswith(de->d_name, "loop"))
                        continue;
                /* Only attached devices have loop/backing_file. */
                snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", de->d_name);
                if (access(path, F_OK) < 0)
                        continue;
                snprintf(dev, sizeof dev, "/dev/%s", de->d_name);
                if (loop_get_info(dev, &info) < 0)
                        continue;
                l = realloc(list, sizeof *list * (size_t) (n + 1));
                if (!l) {
                        free(list);
                        closedir(d);
                        return -ENOMEM;
                }
                list = l;
                list[n++] = info;
        }
        closedir(d);
        if (n > 1)
                qsort(list, (size_t) n, sizeof *list, cmp_info);
        *ret = list;
        return n;
}

/* Loop devices backed by the file with this device and inode. */
static int find_by_backing(dev_t dev, ino_t ino, LoopInfo **ret) {
        LoopInfo *all, *hits = NULL;
        int n, k = 0;

        n = loop_list(&all);
        if (n < 0)
                return n;
        for (int i = 0; i < n; i++)
                if (all[i].backing_dev == (uint64_t) dev && all[i].backing_inode == (uint64_t) ino) {
                        LoopInfo *h = realloc(hits, sizeof *hits * (size_t) (k + 1));
                        if (!h) {
                                free(all);
                                free(hits);
                                return -ENOMEM;
                        }
                        hits = h;
                        hits[k++] = all[i];
                }
        free(all);
        *ret = hits;
        return k;
}

static int partition_blkpg(int fd, int op, int number, long long start, long long size) {
        struct blkpg_partition part = { .pno = number, .start = start, .length = size };
        struct blkpg_ioctl_arg arg = { .op = op, .datalen = sizeof part, .data = &part };

        return ioctl(fd, BLKPG, &arg) < 0 ? -errno : 0;
}

int loop_add_partitions(const char *device) {
        _cleanup_close_ int fd = -1;
        blkid_probe pr = NULL;
        blkid_partlist parts;
        int nr = loop_number(device), n, added = 0, r = 0;

        assert(device);

        if (nr < 0)
                return nr;
        if (count_partitions(nr, NULL, 0) > 0)
                return 0; /* the kernel did it */

        fd = open(device, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        pr = blkid_new_probe();
        if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
                r = -ENOMEM;
                goto finish;
        }
        blkid_probe_enable_partitions(pr, 1);
        blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
        if (blkid_do_safeprobe(pr) < 0)
                goto finish; /* no partition table: nothing to add */
        parts = blkid_probe_get_partitions(pr);
        if (!parts)
                goto finish;
        n = blkid_partlist_numof_partitions(parts);
        for (int i = 0; i < n; i++) {
                blkid_partition p = blkid_partlist_get_partition(parts, i);
                /* blkid counts in 512-byte sectors; BLKPG wants bytes. */
                r = partition_blkpg(fd, BLKPG_ADD_PARTITION, blkid_partition_get_partno(p),
                                    (long long) blkid_partition_get_start(p) * 512,
                                    (long long) blkid_partition_get_size(p) * 512);
                if (r < 0 && r != -EBUSY)
                        goto finish;
                added++;
                r = 0;
        }
finish:
        if (pr)
                blkid_free_probe(pr);
        return r < 0 ? r : added;
}

static int remove_partitions(int fd, int nr) {
        int numbers[128], n = count_partitions(nr, numbers, 128);

        for (int i = 0; i < n && i < 128; i++)
                (void) partition_blkpg(fd, BLKPG_DEL_PARTITION, numbers[i], 0, 0);
        return 0;
}

static int detach_device(const char *device) {
        _cleanup_close_ int fd = -1;
        int nr = loop_number(device);

        if (nr < 0)
                return nr;
        fd = open(device, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? 0 : -errno;
        remove_partitions(fd, nr);
        if (ioctl(fd, LOOP_CLR_FD) < 0)
                return errno == ENXIO ? 0 : -errno;
        return 1;
}

int loop_detach(const char *device_or_file) {
        LoopInfo *hits = NULL;
        struct stat st;
        int n, r, detached = 0;

        assert(device_or_file);

        if (loop_number(device_or_file) >= 0)
                return detach_device(device_or_file);

        if (stat(device_or_file, &st) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (S_ISBLK(st.st_mode))
                return -EINVAL; /* a block device that is not /dev/loopN */

        n = find_by_backing(st.st_dev, st.st_ino, &hits);
        if (n < 0)
                return n;
        for (int i = 0; i < n; i++) {
                r = detach_device(hits[i].device);
                if (r < 0) {
                        free(hits);
                        return r;
                }
                detached += r;
        }
        free(hits);
        return detached;
}

/* LOOP_CONFIGURE marks the disk as changed and reads its partition table only after dropping its lock; a
 * udev worker opening the new device in between (it probes every fresh loop device) reads it first, and
 * the kernel's own read then removes and adds every partition again, under a root mount that may have
 * started on the first ones (6.1, in the initrd). So the device is configured with scanning off, an open
 * of ours takes the "changed" mark while a scan is a no-op, and scanning is switched on afterwards: then
 * exactly one read happens, by whoever opens first. */
static int configure(int loop_fd, int file_fd, const LoopAttachOptions *o, bool read_only) {
        struct loop_config config = {
                .fd = (uint32_t) file_fd,
                .info.lo_flags = (read_only ? LO_FLAGS_READ_ONLY : 0) |
                                 (o->direct_io != DIRECT_IO_NO ? LO_FLAGS_DIRECT_IO : 0),
        };

        if (o->ref)
                memcpy(config.info.lo_file_name, o->ref, strlen(o->ref));
        if (ioctl(loop_fd, LOOP_CONFIGURE, &config) >= 0)
                return 0;
        if (errno != ENOTTY && errno != EINVAL)
                return -errno;

        /* Kernels before 5.8: two steps (udev may see the device before its reference). */
        if (ioctl(loop_fd, LOOP_SET_FD, file_fd) < 0)
                return -errno;
        config.info.lo_flags &= ~LO_FLAGS_DIRECT_IO; /* not settable this way */
        if (ioctl(loop_fd, LOOP_SET_STATUS64, &config.info) < 0) {
                int r = -errno;
                (void) ioctl(loop_fd, LOOP_CLR_FD);
                return r;
        }
        if (o->direct_io != DIRECT_IO_NO)
                (void) ioctl(loop_fd, LOOP_SET_DIRECT_IO, 1UL);
        return 0;
}

/* The kernel falls back to buffered I/O where the backing file cannot do direct I/O; "yes" insists. */
static int check_direct_io(int loop_fd, const LoopAttachOptions *o) {
        struct loop_info64 info = {};

        if (o->direct_io != DIRECT_IO_YES)
                return 0;
        if (ioctl(loop_fd, LOOP_GET_STATUS64, &info) < 0)
                return -errno;
        return info.lo_flags & LO_FLAGS_DIRECT_IO ? 0 : -EOPNOTSUPP;
}

static int enable_partition_scan(int loop_fd, const char *device) {
        struct loop_info64 info = {};
        int fd;

        /* takes the "changed" mark LOOP_CONFIGURE left, while scanning is still off */
        fd = open(device, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0)
                close(fd);
        if (ioctl(loop_fd, LOOP_GET_STATUS64, &info) < 0)
                return -errno;
        info.lo_flags |= LO_FLAGS_PARTSCAN;
        return ioctl(loop_fd, LOOP_SET_STATUS64, &info) < 0 ? -errno : 0;
}

int loop_attach(const char *file, const LoopAttachOptions *o, char **ret_device, bool *ret_read_only) {
        _cleanup_close_ int file_fd = -1, ctl = -1;
        bool read_only;
        struct stat st;
        int r = -EBUSY;

        assert(file);
        assert(o);
        assert(ret_device);

        read_only = o->read_only;
        if (o->ref && strlen(o->ref) > LOOP_REF_MAX)
                return -ENAMETOOLONG;

        file_fd = open(file, (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOCTTY);
        if (file_fd < 0 && !read_only && (errno == EROFS || errno == EACCES || errno == EPERM)) {
                read_only = true;
                file_fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        }
        if (file_fd < 0)
                return -errno;
        if (fstat(file_fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
                return -EBADFD;

        if (!o->force) {
                LoopInfo *hits = NULL;
                int n = find_by_backing(st.st_dev, st.st_ino, &hits);
                free(hits);
                if (n > 0)
                        return -EEXIST;
        }

        ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
        if (ctl < 0)
                return -errno;

        /* Another process may take the free device between our two calls: then ask again. */
        for (int attempt = 0; attempt < ATTACH_TRIES; attempt++) {
                _cleanup_close_ int loop_fd = -1;
                char device[32];
                int nr = ioctl(ctl, LOOP_CTL_GET_FREE);

                if (nr < 0)
                        return -errno;
                snprintf(device, sizeof device, "/dev/loop%d", nr);
                /* read-only: no descriptor open for writing, whose close would have udevd read the table */
                loop_fd = open(device, (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC);
                if (loop_fd < 0) {
                        if (errno == ENOENT) {
                                /* devtmpfs has not made the node yet */
                                nanosleep(&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
                                continue;
                        }
                        return -errno;
                }
                r = configure(loop_fd, file_fd, o, read_only);
                if (r == -EBUSY)
                        continue;
                if (r < 0)
                        return r;

                r = check_direct_io(loop_fd, o);
                if (r >= 0 && !o->no_partitions)
                        r = enable_partition_scan(loop_fd, device);
                if (r >= 0 && !o->no_partitions)
                        r = loop_add_partitions(device);
                if (r < 0) {
                        (void) detach_device(device);
                        return r;
                }

                *ret_device = strdup(device);
                if (!*ret_device) {
                        (void) detach_device(device);
                        return -ENOMEM;
                }
                if (ret_read_only)
                        *ret_read_only = read_only;
                if (!read_only)
                        close_without_rescan(&loop_fd, device);
                return 0;
        }
        return r;
}
