/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading whole files and writing files atomically.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "path-util.h"
#include "random-util.h"
#include "string-util.h"

int read_full_file(const char *path, size_t max_size, char **ret, size_t *ret_size) {
        _cleanup_close_ int fd = -1;

        assert(path);
        assert(ret);

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        return read_full_fd(fd, max_size, ret, ret_size);
}

int read_full_fd(int fd, size_t max_size, char **ret, size_t *ret_size) {
        _cleanup_free_ char *buf = NULL;
        size_t size = 0, allocated = 0;

        assert(fd >= 0);
        assert(ret);

        for (;;) {
                ssize_t n;

                if (allocated - size < 4096) {
                        size_t want = allocated ? allocated * 2 : 4096;
                        char *b;

                        if (want > max_size + 4096)
                                want = max_size + 4096;
                        if (want <= allocated)
                                return -EFBIG;
                        b = realloc(buf, want + 1);
                        if (!b)
                                return -ENOMEM;
                        buf = b;
                        allocated = want;
                }

                n = read(fd, buf + size, allocated - size);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        break;
                size += (size_t) n;
                if (size > max_size)
                        return -EFBIG;
        }

        if (!buf) {
                buf = malloc(1);
                if (!buf)
                        return -ENOMEM;
        }
        buf[size] = 0;
        *ret = TAKE_PTR(buf);
        if (ret_size)
                *ret_size = size;
        return 0;
}

/* offset < 0: write at the file position */
static int write_all_at(int fd, const void *buf, size_t size, int64_t offset) {
        const char *p = buf;

        while (size > 0) {
                ssize_t n = offset < 0 ? write(fd, p, size) : pwrite(fd, p, size, (off_t) offset);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        return -EIO;
                p += n;
                size -= (size_t) n;
                if (offset >= 0)
                        offset += n;
        }
        return 0;
}

int write_all(int fd, const void *buf, size_t size) {
        assert(buf || size == 0);

        return write_all_at(fd, buf, size, -1);
}

int pwrite_all(int fd, const void *buf, size_t size, uint64_t offset) {
        assert(buf || size == 0);

        return write_all_at(fd, buf, size, (int64_t) offset);
}

int fsync_directory_of(const char *path) {
        _cleanup_free_ char *dir = NULL;
        _cleanup_close_ int fd = -1;
        int r;

        assert(path);

        r = path_extract_directory(path, &dir);
        if (r < 0)
                return r;

        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (fsync(fd) < 0)
                return -errno;
        return 0;
}

int open_tmpfile_beside(const char *path, char **ret_tmp) {
        _cleanup_free_ char *dir = NULL, *base = NULL, *tmp = NULL;
        int fd, r;

        assert(path);
        assert(ret_tmp);

        r = path_extract_directory(path, &dir);
        if (r < 0)
                return r;
        r = path_extract_filename(path, &base);
        if (r < 0)
                return r;

        if (asprintf(&tmp, "%s/.#%s.XXXXXX", dir, base) < 0)
                return -ENOMEM;

        fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return -errno;

        *ret_tmp = TAKE_PTR(tmp);
        return fd;
}

int link_tmpfile(int fd, const char *tmp, const char *path, mode_t mode) {
        int r = 0;

        assert(tmp);
        assert(path);

        if (fchmod(fd, mode) < 0 || fsync(fd) < 0 || rename(tmp, path) < 0)
                r = -errno;
        if (r < 0) {
                (void) unlink(tmp);
                return r;
        }
        return fsync_directory_of(path);
}

int tmp_name_random(const char *final_name, char **ret) {
        unsigned long long n = random_u64_insecure();

        assert(final_name);
        assert(ret);

        return asprintf(ret, ".#%s.%0*llx", final_name, TMP_NAME_RANDOM_DIGITS, n) < 0 ? -ENOMEM : 0;
}

int write_file_atomic_at(int dir_fd, const char *name, const void *data, size_t size, mode_t mode) {
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int fd = -1;
        int r;

        assert(dir_fd >= 0);
        assert(name && !strchr(name, '/'));
        assert(data || size == 0);

        r = tmp_name_random(name, &tmp);
        if (r < 0)
                return r;
        fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
                return -errno;
        r = write_all(fd, data, size);
        if (r >= 0 && (fchmod(fd, mode) < 0 || fsync(fd) < 0 || renameat(dir_fd, tmp, dir_fd, name) < 0))
                r = -errno;
        if (r < 0) {
                (void) unlinkat(dir_fd, tmp, 0);
                return r;
        }
        return fsync(dir_fd) < 0 ? -errno : 0;
}

int write_file_replace(const char *path, const void *data, size_t size) {
        _cleanup_free_ char *real = realpath(path, NULL), *tmp = NULL;
        _cleanup_close_ int fd = -1;
        struct stat st;
        int r;

        assert(path);
        assert(data || size == 0);

        if (!real || stat(real, &st) < 0)
                return -errno;
        fd = open_tmpfile_beside(real, &tmp);
        if (fd < 0)
                return fd;
        r = write_all(fd, data, size);
        /* The owner first: fchown() may clear setuid bits, which the mode then restores. */
        if (r >= 0 && fchown(fd, st.st_uid, st.st_gid) < 0)
                r = -errno;
        if (r < 0) {
                (void) unlink(tmp);
                return r;
        }
        return link_tmpfile(fd, tmp, real, st.st_mode & 07777);
}

int write_file_atomic(const char *path, const void *data, size_t size, mode_t mode) {
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int fd = -1;
        int r;

        assert(path);
        assert(data || size == 0);

        fd = open_tmpfile_beside(path, &tmp);
        if (fd < 0)
                return fd;

        r = write_all(fd, data, size);
        if (r < 0) {
                (void) unlink(tmp);
                return r;
        }

        return link_tmpfile(fd, tmp, path, mode);
}
