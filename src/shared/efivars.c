/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * EFI variables through efivarfs.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "efivars.h"
#include "fileio.h"
#include "macro.h"
#include "string-util.h"
#include "memory-fundamental.h"
#include "utf16.h"

#ifndef EFIVARFS_MAGIC
#define EFIVARFS_MAGIC 0xde5e81e4
#endif

/* Far beyond any real variable; protects against reading garbage files. */
#define EFI_VARIABLE_SIZE_MAX (4U * 1024U * 1024U)

const char *efivars_dir(void) {
        const char *e = getenv("URLBOOT_EFIVARFS");

        return e ?: "/sys/firmware/efi/efivars";
}

static int variable_path(const char *name, const char *vendor, char **ret) {
        uint8_t guid[16];
        char canonical[37];
        int r;

        /* Reject names that would escape the directory; normalize the GUID's case as the kernel does. */
        if (!name || !*name || strchr(name, '/'))
                return -EINVAL;
        r = efi_guid_from_string(vendor, guid);
        if (r < 0)
                return r;
        if (asprintf(ret, "%s/%s-%s", efivars_dir(), name, efi_guid_to_string(guid, canonical)) < 0)
                return -ENOMEM;
        return 0;
}

int efi_get_variable(const char *name, const char *vendor, uint32_t *ret_attr, void **ret_data, size_t *ret_size) {
        _cleanup_free_ char *path = NULL, *buf = NULL;
        size_t size;
        uint8_t *p;
        int r;

        assert(name);
        assert(vendor);

        r = variable_path(name, vendor, &path);
        if (r < 0)
                return r;

        r = read_full_file(path, EFI_VARIABLE_SIZE_MAX, &buf, &size);
        if (r < 0)
                return r;
        if (size < 4)
                return -EBADMSG;

        p = (uint8_t *) buf;
        if (ret_attr)
                *ret_attr = (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
        if (ret_data) {
                /* Two NUL bytes after the data make UTF-16 strings safe to walk. */
                uint8_t *d = malloc(size - 4 + 2);
                if (!d)
                        return -ENOMEM;
                memcpy(d, p + 4, size - 4);
                d[size - 4] = d[size - 3] = 0;
                *ret_data = d;
        }
        if (ret_size)
                *ret_size = size - 4;
        return 0;
}

int efi_get_variable_string(const char *name, const char *vendor, char **ret) {
        _cleanup_free_ void *data = NULL;
        char *s;
        size_t size;
        int r;

        assert(name);
        assert(vendor);
        assert(ret);

        r = efi_get_variable(name, vendor, NULL, &data, &size);
        if (r < 0)
                return r;

        r = utf16le_to_utf8(data, size, &s);
        if (r < 0)
                return r;
        *ret = s;
        return 0;
}

/* efivarfs sets FS_IMMUTABLE_FL on variables (so that rm -rf cannot brick a machine); other file
 * systems may not know the ioctl at all. Sets or clears it. @ret 1 if it was set before, 0 if not */
static int set_immutable(const char *path, bool on) {
        _cleanup_close_ int fd = -1;
        int flags, was;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return errno == ENOENT ? 0 : -errno;
        if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
                return (errno == ENOTTY || errno == EOPNOTSUPP || errno == EINVAL) ? 0 : -errno;
        was = !!(flags & FS_IMMUTABLE_FL);
        if (was == on)
                return was;
        flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
        if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
                return -errno;
        return was;
}

static bool dir_is_efivarfs(const char *dir) {
        struct statfs sfs;

        return statfs(dir, &sfs) == 0 && (uint32_t) sfs.f_type == (uint32_t) EFIVARFS_MAGIC;
}

static int write_variable(const char *path, const void *buf, size_t size) {
        _cleanup_close_ int fd = -1;
        ssize_t n;

        if (!dir_is_efivarfs(efivars_dir()))
                return write_file_atomic(path, buf, size, 0644);

        /* efivarfs takes a variable in exactly one write() call. */
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
        if (fd < 0)
                return -errno;
        n = write(fd, buf, size);
        if (n < 0)
                return -errno;
        return (size_t) n == size ? 0 : -EIO;
}

int efi_set_variable(const char *name, const char *vendor, uint32_t attr, const void *data, size_t size) {
        _cleanup_free_ char *path = NULL;
        _cleanup_free_ uint8_t *buf = NULL;
        int immutable, r;

        assert(name);
        assert(vendor);
        assert(data || size == 0);

        r = variable_path(name, vendor, &path);
        if (r < 0)
                return r;

        immutable = set_immutable(path, false);
        if (immutable < 0)
                return immutable;

        if (size == 0) {
                if (unlink(path) < 0 && errno != ENOENT)
                        return -errno;
                return 0;
        }

        buf = malloc(4 + size);
        if (!buf)
                return -ENOMEM;
        buf[0] = (uint8_t) attr;
        buf[1] = (uint8_t) (attr >> 8);
        buf[2] = (uint8_t) (attr >> 16);
        buf[3] = (uint8_t) (attr >> 24);
        memcpy(buf + 4, data, size);

        r = write_variable(path, buf, 4 + size);
        /* As it was: a variable that was protected stays protected (systemd does the same). */
        if (immutable > 0)
                (void) set_immutable(path, true);
        return r;
}

int efi_set_variable_string(const char *name, const char *vendor, uint32_t attr, const char *value) {
        void *u16 = NULL;
        size_t size;
        int r;

        assert(name);
        assert(vendor);

        if (!value)
                return efi_set_variable(name, vendor, attr, NULL, 0);

        r = utf8_to_utf16le(value, strlen(value), &u16, &size);
        if (r < 0)
                return r;
        r = efi_set_variable(name, vendor, attr, u16, size);
        ffree(u16);
        return r;
}

/* EFI stores the first three groups little-endian; this is the byte index of each hex pair. */
static const int guid_byte_order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

int efi_guid_from_string(const char *s, uint8_t ret[16]) {
        int k = 0;

        assert(ret);

        if (!s || strlen(s) != 36)
                return -EINVAL;
        for (int i = 0; i < 36;) {
                int hi, lo;

                if (i == 8 || i == 13 || i == 18 || i == 23) {
                        if (s[i] != '-')
                                return -EINVAL;
                        i++;
                        continue;
                }
                hi = unhexchar(s[i]);
                lo = unhexchar(s[i + 1]);
                if (hi < 0 || lo < 0)
                        return -EINVAL;
                ret[guid_byte_order[k++]] = (uint8_t) (hi << 4 | lo);
                i += 2;
        }
        return 0;
}

char *efi_guid_to_string(const uint8_t guid[16], char buf[37]) {
        static const char hex[] = "0123456789abcdef";
        char *p = buf;

        assert(guid);
        assert(buf);

        for (int k = 0; k < 16; k++) {
                uint8_t b = guid[guid_byte_order[k]];

                if (k == 4 || k == 6 || k == 8 || k == 10)
                        *p++ = '-';
                *p++ = hex[b >> 4];
                *p++ = hex[b & 15];
        }
        *p = 0;
        return buf;
}
