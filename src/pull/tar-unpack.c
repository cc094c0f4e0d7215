/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Unpacking a (compressed) tarball into a directory with libarchive, safely.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libarchive-dl.h"
#include "error-buf.h"
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

/* "./" prefixes are normal in tarballs; libarchive would strip them too. */
static const char *skip_dot_slash(const char *p) {
        while (startswith(p, "./"))
                for (p += 2; *p == '/'; p++)
                        ;
        return p;
}

/* Every component is "" or ".": the name is the root of the tree (".", "./", "", ".//."...). */
static bool path_is_root(const char *p) {
        for (;;) {
                size_t n = strcspn(p, "/");

                if (!(n == 0 || (n == 1 && p[0] == '.')))
                        return false;
                if (!p[n])
                        return true;
                p += n + 1;
        }
}

/* Relative and without ".." components: the only names an image may use. */
static bool path_is_below(const char *p) {
        if (p[0] == '/')
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

/* The root may only be described as a plain directory: anything else would replace the tree. */
static int check_root_entry(struct archive_entry *e, TarRoot *root, char *error, size_t error_size) {
        const char *what = NULL;

        if (sym_archive_entry_hardlink(e))
                what = "a hard link";
        else if (sym_archive_entry_symlink(e) || sym_archive_entry_filetype(e) == AE_IFLNK)
                what = "a symlink";
        else if (sym_archive_entry_filetype(e) != AE_IFDIR)
                what = "not a directory";
        if (what)
                return error_setf(error, error_size, -EBADMSG, "refusing the archive: its root entry '%s' is %s",
                         sym_archive_entry_pathname(e), what);
        /* Its owner and mode are for the tree once in place; until then it stays private. */
        *root = (TarRoot) { .present = true, .mode = sym_archive_entry_perm(e) & 07777,
                            .uid = (uid_t) sym_archive_entry_uid(e), .gid = (gid_t) sym_archive_entry_gid(e) };
        sym_archive_entry_set_pathname(e, ".");
        sym_archive_entry_set_perm(e, 0700);
        return 0;
}

/* Names become relative to the tree; hostile names and hard-link targets are refused. */
static int check_entry(struct archive_entry *e, TarRoot *root, char *error, size_t error_size) {
        const char *raw = sym_archive_entry_pathname(e), *link = sym_archive_entry_hardlink(e), *path;
        _cleanup_free_ char *p = NULL, *l = NULL;

        if (!raw)
                return error_setf(error, error_size, -EBADMSG, "refusing an entry without a name");
        path = skip_dot_slash(raw);
        if (path_is_root(path))
                return check_root_entry(e, root, error, error_size);
        if (!path_is_below(path))
                return error_setf(error, error_size, -EBADMSG, "refusing entry '%s': absolute or with '..'", raw);
        if (link) {
                const char *target = skip_dot_slash(link);

                if (path_is_root(target) || !path_is_below(target))
                        return error_setf(error, error_size, -EBADMSG, "refusing hard link '%s' to '%s'", raw, link);
                l = strdup(target);
                if (!l)
                        return -ENOMEM;
        }
        p = strdup(path);
        if (!p)
                return -ENOMEM;
        /* Setting the names frees the strings raw and link point into: copies first. */
        sym_archive_entry_set_pathname(e, p);
        if (l)
                sym_archive_entry_set_hardlink(e, l);
        return 0;
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

static int open_archive(struct archive **ret_in, struct archive **ret_out, Source *s) {
        int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_ACL | ARCHIVE_EXTRACT_XATTR |
                    ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                    ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS | ARCHIVE_EXTRACT_SPARSE;

        *ret_in = sym_archive_read_new();
        *ret_out = sym_archive_write_disk_new();
        if (!*ret_in || !*ret_out)
                return -ENOMEM;
        /* No filter at all: the caller decodes (within its memory budget), and no external decoder
         * program ever runs on unverified data. */
        sym_archive_read_support_format_tar(*ret_in);
        sym_archive_read_support_format_gnutar(*ret_in);
        /* No name lookup: owners are the archive's numbers, as in systemd's import. */
        if (geteuid() == 0)
                flags |= ARCHIVE_EXTRACT_OWNER;
        sym_archive_write_disk_set_options(*ret_out, flags);
        return sym_archive_read_open(*ret_in, s, NULL, source_read, NULL) == ARCHIVE_OK ? 0 : -EBADMSG;
}

static int unpack_entries(struct archive *in, struct archive *out, Source *s, TarRoot *root, char *error,
                          size_t error_size) {
        for (;;) {
                struct archive_entry *e;
                int k = sym_archive_read_next_header(in, &e), r;

                if (k == ARCHIVE_EOF)
                        break;
                if (k < ARCHIVE_WARN)
                        return error_setf(error, error_size, s->error ?: -EBADMSG,
                                          "%s", sym_archive_error_string(in) ?: "damaged archive");
                r = check_entry(e, root, error, error_size);
                if (r < 0)
                        return r;
                if (sym_archive_write_header(out, e) < ARCHIVE_WARN)
                        return error_setf(error, error_size, errno_of(out, -EBADMSG),
                                          "%s", sym_archive_error_string(out) ?: "cannot create entry");
                if (sym_archive_entry_size(e) > 0 && copy_data(in, out) < ARCHIVE_WARN)
                        return error_setf(error, error_size, s->error ?: errno_of(out, -EBADMSG), "%s",
                                 sym_archive_error_string(in) ?: sym_archive_error_string(out) ?: "cannot write data");
                if (sym_archive_write_finish_entry(out) < ARCHIVE_WARN)
                        return error_setf(error, error_size, errno_of(out, -EIO),
                                          "%s", sym_archive_error_string(out) ?: "cannot finish entry");
        }
        /* Directory times and modes are applied at close. */
        if (sym_archive_write_close(out) != ARCHIVE_OK)
                return error_setf(error, error_size, errno_of(out, -EIO),
                                  "%s", sym_archive_error_string(out) ?: "cannot finish");
        return 0;
}

int tar_unpack(int dir_fd, tar_read_t read, void *userdata, TarRoot *ret_root, char *error, size_t error_size) {
        Source s = { .read = read, .userdata = userdata };
        struct archive *in = NULL, *out = NULL;
        _cleanup_close_ int old_cwd = -1;
        const char *missing;
        TarRoot root = {};
        int r;

        assert(dir_fd >= 0);
        assert(read);
        assert(ret_root);
        assert(error && error_size > 0);

        error[0] = 0;
        r = libarchive_load(&missing);
        if (r < 0)
                return error_setf(error, error_size, r, "%s", missing);
        /* libarchive works relative to the working directory: make it this thread's own, then the tree. */
        old_cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (unshare(CLONE_FS) < 0 || fchdir(dir_fd) < 0) {
                r = -errno;
                return error_setf(error, error_size, r, "cannot enter the directory to unpack into: %s", strerror(-r));
        }

        s.buf = malloc(READ_BLOCK);
        if (!s.buf)
                r = -ENOMEM;
        else
                r = open_archive(&in, &out, &s);
        if (r == -EBADMSG) {
                r = s.error ?: -EBADMSG;
                snprintf(error, error_size, "%s", sym_archive_error_string(in) ?: "not a tar archive");
        } else if (r >= 0)
                r = unpack_entries(in, out, &s, &root, error, error_size);

        if (in)
                sym_archive_read_free(in);
        if (out)
                sym_archive_write_free(out);
        free(s.buf);
        if (old_cwd >= 0)
                (void) fchdir(old_cwd);
        if (r >= 0)
                *ret_root = root;
        return r;
}
