/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Unpacking a (compressed) tarball into a directory with libarchive, safely.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libarchive-dl.h"
#include "macro.h"
#include "string-util.h"
#include "tar-unpack.h"

#define READ_BLOCK (256 * 1024)

typedef struct Source {
        tar_read_t read;
        void *userdata;
        void *buf;
        int error;
} Source;

static la_ssize_t source_read(struct archive *a, void *userdata, const void **ret) {
        Source *s = userdata;
        long n = s->read(s->userdata, s->buf, READ_BLOCK);

        if (n < 0) {
                s->error = (int) n;
                sym_archive_set_error(a, (int) -n, "download failed: %s", strerror((int) -n));
                return -1;
        }
        *ret = s->buf;
        return n;
}

/* Relative and without ".." components: the only paths an image may name. */
static bool entry_path_is_safe(const char *p) {
        if (!p || !*p || p[0] == '/')
                return false;
        for (const char *s = p; *s;) {
                size_t n = strcspn(s, "/");
                if (n == 2 && s[0] == '.' && s[1] == '.')
                        return false;
                s += n;
                s += strspn(s, "/");
        }
        return true;
}

static int copy_data(struct archive *in, struct archive *out) {
        for (;;) {
                const void *buf;
                size_t size;
                la_int64_t offset;
                int r = sym_archive_read_data_block(in, &buf, &size, &offset);

                if (r == ARCHIVE_EOF)
                        return ARCHIVE_OK;
                if (r < ARCHIVE_OK)
                        return r;
                /* Offsets keep sparse files sparse. */
                if (sym_archive_write_data_block(out, buf, size, offset) < ARCHIVE_OK)
                        return ARCHIVE_FAILED;
        }
}

static int errno_of(struct archive *a, int fallback) {
        int e = sym_archive_errno(a);

        return e > 0 ? -e : fallback;
}

static int rebase(struct archive_entry *e, const char *dir, char *error, size_t error_size) {
        const char *path = sym_archive_entry_pathname(e), *link = sym_archive_entry_hardlink(e);
        _cleanup_free_ char *p = NULL, *l = NULL;

        /* "./" prefixes are normal in tarballs. */
        while (path && startswith(path, "./"))
                path += 2;
        if (path && (streq(path, ".") || !*path))
                path = NULL;

        if (!path) {
                sym_archive_entry_set_pathname(e, dir);
                return 0;
        }
        if (!entry_path_is_safe(path)) {
                snprintf(error, error_size, "refusing entry '%s': absolute or with '..'", sym_archive_entry_pathname(e));
                return -EBADMSG;
        }
        if (link) {
                while (startswith(link, "./"))
                        link += 2;
                if (!entry_path_is_safe(link)) {
                        snprintf(error, error_size, "refusing hard link '%s' to '%s'", path, link);
                        return -EBADMSG;
                }
                if (asprintf(&l, "%s/%s", dir, link) < 0)
                        return -ENOMEM;
        }
        if (asprintf(&p, "%s/%s", dir, path) < 0)
                return -ENOMEM;
        /* Setting the names frees the strings path and link point into. */
        sym_archive_entry_set_pathname(e, p);
        if (l)
                sym_archive_entry_set_hardlink(e, l);
        return 0;
}

int tar_unpack(const char *dir, tar_read_t read, void *userdata, char *error, size_t error_size) {
        Source s = { .read = read, .userdata = userdata };
        struct archive *in = NULL, *out = NULL;
        const char *missing;
        int flags, r;

        error[0] = 0;
        r = libarchive_load(&missing);
        if (r < 0) {
                snprintf(error, error_size, "%s", missing);
                return r;
        }
        s.buf = malloc(READ_BLOCK);
        in = sym_archive_read_new();
        out = sym_archive_write_disk_new();
        if (!s.buf || !in || !out) {
                r = -ENOMEM;
                goto finish;
        }

        sym_archive_read_support_filter_all(in);
        sym_archive_read_support_format_tar(in);
        sym_archive_read_support_format_gnutar(in);

        flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_ACL | ARCHIVE_EXTRACT_XATTR |
                ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SPARSE;
        if (geteuid() == 0)
                flags |= ARCHIVE_EXTRACT_OWNER;
        sym_archive_write_disk_set_options(out, flags);
        sym_archive_write_disk_set_standard_lookup(out);

        if (sym_archive_read_open(in, &s, NULL, source_read, NULL) != ARCHIVE_OK) {
                r = s.error ?: -EBADMSG;
                snprintf(error, error_size, "%s", sym_archive_error_string(in) ?: "not a tar archive");
                goto finish;
        }

        for (;;) {
                struct archive_entry *e;
                int k = sym_archive_read_next_header(in, &e);

                if (k == ARCHIVE_EOF)
                        break;
                if (k < ARCHIVE_WARN) {
                        r = s.error ?: -EBADMSG;
                        snprintf(error, error_size, "%s", sym_archive_error_string(in) ?: "damaged archive");
                        goto finish;
                }

                r = rebase(e, dir, error, error_size);
                if (r < 0)
                        goto finish;

                if (sym_archive_write_header(out, e) < ARCHIVE_WARN) {
                        r = errno_of(out, -EBADMSG);
                        snprintf(error, error_size, "%s", sym_archive_error_string(out) ?: "cannot create entry");
                        goto finish;
                }
                if (sym_archive_entry_size(e) > 0 && copy_data(in, out) < ARCHIVE_WARN) {
                        r = s.error ?: errno_of(out, -EBADMSG);
                        snprintf(error, error_size, "%s",
                                 sym_archive_error_string(in) ?: sym_archive_error_string(out) ?: "cannot write data");
                        goto finish;
                }
                if (sym_archive_write_finish_entry(out) < ARCHIVE_WARN) {
                        r = errno_of(out, -EIO);
                        snprintf(error, error_size, "%s", sym_archive_error_string(out) ?: "cannot finish entry");
                        goto finish;
                }
        }

        /* Directory times and modes are applied at close. */
        if (sym_archive_write_close(out) != ARCHIVE_OK) {
                r = errno_of(out, -EIO);
                snprintf(error, error_size, "%s", sym_archive_error_string(out) ?: "cannot finish");
        }

finish:
        if (in)
                sym_archive_read_free(in);
        if (out)
                sym_archive_write_free(out);
        free(s.buf);
        return r;
}
