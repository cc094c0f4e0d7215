/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A served file or block device.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "macro.h"
#include "resource.h"

/* Size and validators from the open file; the ETag is the content's digest when known. */
static int take_validators(Resource *r, const char *sha256) {
        struct stat st;

        if (fstat(r->fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
                return -ENOTBLK;
        r->regular = S_ISREG(st.st_mode);
        if (r->regular)
                r->size = (uint64_t) st.st_size;
        else if (ioctl(r->fd, BLKGETSIZE64, &r->size) < 0)
                return -errno;
        r->modified = st.st_mtim.tv_sec;
        if (sha256)
                snprintf(r->etag, sizeof r->etag, "\"sha256:%.64s\"", sha256);
        else
                snprintf(r->etag, sizeof r->etag, "\"%x-%x-%llx-%llx-%lx\"", major(st.st_dev), minor(st.st_dev),
                         (unsigned long long) st.st_ino, (unsigned long long) r->size,
                         (unsigned long) (st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000));
        return 0;
}

int resource_open(Resource *r, const char *path, const char *file, const char *what, const char *sha256) {
        int e;

        assert(r);
        assert(path);
        assert(file);

        *r = (Resource) { .fd = -1 };
        r->fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (r->fd < 0)
                return -errno;
        e = take_validators(r, sha256);
        if (e < 0) {
                resource_done(r);
                return e;
        }
        r->path = strdup(path);
        r->file = strdup(file);
        r->what = strdup(what ?: file);
        if (!r->path || !r->file || !r->what) {
                resource_done(r);
                return -ENOMEM;
        }
        return 0;
}

int resource_reload(Resource *r) {
        assert(r);
        return take_validators(r, NULL);
}

/* Where the next data starts at or after offset (the file's size when only a hole is left). */
static uint64_t next_data(const Resource *r, uint64_t offset) {
        off_t d = lseek(r->fd, (off_t) offset, SEEK_DATA);

        if (d < 0)      /* ENXIO: a hole up to the end; another error: read it and see */
                return errno == ENXIO ? r->size : offset;
        return (uint64_t) d;
}

/* Where the data at offset ends (the next hole; the file's end has one). */
static uint64_t next_hole(const Resource *r, uint64_t offset) {
        off_t h = lseek(r->fd, (off_t) offset, SEEK_HOLE);

        return h < 0 ? r->size : (uint64_t) h;
}

ssize_t resource_read(const Resource *r, void *buf, size_t size, uint64_t offset) {
        size_t done = 0;

        assert(r);
        assert(buf || size == 0);

        if (offset >= r->size)
                return 0;
        size = (size_t) MIN((uint64_t) size, r->size - offset);
        while (done < size) {
                uint64_t at = offset + done, data = r->regular ? next_data(r, at) : at;
                ssize_t n;

                if (data > at) {        /* a hole: zeros, nothing read */
                        size_t z = (size_t) MIN(data - at, (uint64_t) (size - done));

                        memset((uint8_t *) buf + done, 0, z);
                        done += z;
                        continue;
                }
                n = pread(r->fd, (uint8_t *) buf + done,
                          r->regular ? (size_t) MIN(next_hole(r, at) - at, (uint64_t) (size - done)) : size - done,
                          (off_t) at);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                if (n == 0)
                        break;          /* it shrank */
                done += (size_t) n;
        }
        return (ssize_t) done;
}

void resource_done(Resource *r) {
        assert(r);

        if (r->fd >= 0)
                close(r->fd);
        free(r->path);
        free(r->file);
        free(r->what);
        *r = (Resource) { .fd = -1 };
}
