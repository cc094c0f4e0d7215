/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "fileio.h"
#include "macro.h"
#include "path-util.h"
#include "sha256.h"
#include "string-util.h"
#include "sysext-digest.h"

#define ROOT_HASH_MAX 128       /* hex digits: SHA-512 */
#define TREE_DEPTH_MAX 128

static const char *const kind_names[_SYSEXT_DIGEST_KIND_MAX] = {
        [SYSEXT_DIGEST_VERITY] = "verity",
        [SYSEXT_DIGEST_SHA256] = "sha256",
        [SYSEXT_DIGEST_TREE] = "tree",
};

const char *sysext_digest_kind_name(SysextDigestKind k) {
        return k >= 0 && k < _SYSEXT_DIGEST_KIND_MAX ? kind_names[k] : NULL;
}

int sysext_name_from_path(const char *path, char **ret) {
        _cleanup_free_ char *name = NULL;
        struct stat st;
        char *e;
        int r;

        assert(path);
        assert(ret);

        r = path_extract_filename(path, &name);
        if (r < 0)
                return r;
        if (stat(path, &st) >= 0 && S_ISREG(st.st_mode) && (e = endswith(name, ".raw")) && e != name)
                *e = 0;
        *ret = TAKE_PTR(name);
        return 0;
}

/* A root hash as hex, lowercased: the first line of @text, nothing else on it. */
static int root_hash_normalize(const char *text, size_t n, char **ret) {
        _cleanup_free_ char *hex = NULL;
        size_t len = 0;

        while (len < n && text[len] != '\n')
                len++;
        if (len == 0 || len % 2 || len > ROOT_HASH_MAX)
                return -EBADMSG;
        hex = strndup(text, len);
        if (!hex)
                return -ENOMEM;
        for (size_t i = 0; i < len; i++) {
                if (unhexchar(hex[i]) < 0)
                        return -EBADMSG;
                hex[i] = (char) (hex[i] >= 'A' && hex[i] <= 'F' ? hex[i] - 'A' + 'a' : hex[i]);
        }
        *ret = TAKE_PTR(hex);
        return 0;
}

static int root_hash_from_xattr(const char *path, const char *attr, char **ret) {
        char buf[ROOT_HASH_MAX + 2];
        ssize_t n = getxattr(path, attr, buf, sizeof buf);

        if (n < 0)
                return errno == ENODATA || errno == ENOTSUP || errno == ERANGE ? 0 : -errno;
        return root_hash_normalize(buf, (size_t) n, ret) < 0 ? -EBADMSG : 1;
}

static int root_hash_from_sidecar(const char *path, const char *suffix, char **ret) {
        _cleanup_free_ char *sidecar = NULL, *text = NULL;
        const char *e = endswith(path, ".raw");
        size_t n;
        int r;

        if (!e)
                return 0;       /* systemd-sysext 252 looks for sidecars of NAME.raw only */
        if (asprintf(&sidecar, "%.*s%s", (int) (e - path), path, suffix) < 0)
                return -ENOMEM;
        r = read_full_file(sidecar, ROOT_HASH_MAX + 2, &text, &n);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return r;
        r = root_hash_normalize(text, n, ret);
        return r < 0 ? r : 1;
}

/* As systemd-sysext 252: the root's hash before /usr's, the attribute before the sidecar. */
static int image_root_hash(const char *path, char **ret) {
        int r = root_hash_from_xattr(path, "user.verity.roothash", ret);

        if (r == 0)
                r = root_hash_from_sidecar(path, ".roothash", ret);
        if (r == 0)
                r = root_hash_from_xattr(path, "user.verity.usrhash", ret);
        if (r == 0)
                r = root_hash_from_sidecar(path, ".usrhash", ret);
        return r;
}

static int sha256_fd(int fd, char ret_hex[65]) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        unsigned char buf[64 * 1024], md[32];
        ssize_t n;
        int r = 0;

        if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
                EVP_MD_CTX_free(ctx);
                return -ENOMEM;
        }
        while ((n = read(fd, buf, sizeof buf)) != 0) {
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        break;
                }
                EVP_DigestUpdate(ctx, buf, (size_t) n);
        }
        if (r == 0) {
                EVP_DigestFinal_ex(ctx, md, NULL);
                sha256_to_hex(md, ret_hex);
        }
        EVP_MD_CTX_free(ctx);
        return r;
}

static char type_letter(mode_t m) {
        return S_ISDIR(m) ? 'd' : S_ISREG(m) ? 'f' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b' :
               S_ISFIFO(m) ? 'p' : 's';
}

static int compare_names(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The payload of one entry: a file's SHA-256, a link's target, a device's numbers. */
static int entry_payload(int dir_fd, const char *name, const struct stat *st, char **ret) {
        char hex[65];
        int r;

        if (S_ISREG(st->st_mode)) {
                int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
                if (fd < 0)
                        return -errno;
                r = sha256_fd(fd, hex);
                close(fd);
                return r < 0 ? r : (*ret = strdup(hex)) ? 0 : -ENOMEM;
        }
        if (S_ISLNK(st->st_mode)) {
                char target[PATH_MAX];
                ssize_t n = readlinkat(dir_fd, name, target, sizeof target - 1);
                if (n < 0)
                        return -errno;
                target[n] = 0;
                return (*ret = strdup(target)) ? 0 : -ENOMEM;
        }
        if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
                return asprintf(ret, "%u:%u", major(st->st_rdev), minor(st->st_rdev)) < 0 ? -ENOMEM : 0;
        return (*ret = strdup("")) ? 0 : -ENOMEM;
}

static int digest_record(EVP_MD_CTX *ctx, const char *path, const struct stat *st, const char *payload) {
        _cleanup_free_ char *fields = NULL;
        int n = asprintf(&fields, "%c%c%o%c%u%c%u%c%s", type_letter(st->st_mode), 0, (unsigned) (st->st_mode & 07777),
                         0, (unsigned) st->st_uid, 0, (unsigned) st->st_gid, 0, payload);

        if (n < 0)
                return -ENOMEM;
        EVP_DigestUpdate(ctx, path, strlen(path) + 1);
        EVP_DigestUpdate(ctx, fields, (size_t) n + 1);
        return 0;
}

static int digest_dir(EVP_MD_CTX *ctx, int dir_fd, const char *prefix, unsigned depth);

/* One entry of a directory, and what is below it. */
static int digest_entry(EVP_MD_CTX *ctx, int dir_fd, const char *prefix, const char *name, unsigned depth) {
        _cleanup_free_ char *path = NULL, *payload = NULL;
        struct stat st;
        int r;

        if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return -errno;
        if (asprintf(&path, "%s/%s", prefix, name) < 0)
                return -ENOMEM;
        r = entry_payload(dir_fd, name, &st, &payload);
        if (r >= 0)
                r = digest_record(ctx, path, &st, payload);
        if (r >= 0 && S_ISDIR(st.st_mode)) {
                int sub = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
                if (sub < 0)
                        return -errno;
                r = digest_dir(ctx, sub, path, depth + 1);      /* takes sub */
        }
        return r;
}

/* The entries of a directory in byte order of their names; takes @dir_fd. */
static int digest_dir(EVP_MD_CTX *ctx, int dir_fd, const char *prefix, unsigned depth) {
        _cleanup_strv_free_ char **names = NULL;
        DIR *d;
        struct dirent *de;
        size_t n;
        int r = 0;

        if (depth > TREE_DEPTH_MAX) {
                close(dir_fd);
                return -ELOOP;
        }
        d = fdopendir(dir_fd);
        if (!d) {
                close(dir_fd);
                return -errno;
        }
        while (r >= 0 && (errno = 0, de = readdir(d)))
                if (!streq(de->d_name, ".") && !streq(de->d_name, ".."))
                        r = strv_extend(&names, de->d_name);
        if (r >= 0 && errno != 0)
                r = -errno;
        n = strv_length(names);
        if (n > 0)
                qsort(names, n, sizeof *names, compare_names);
        for (size_t i = 0; r >= 0 && i < n; i++)
                r = digest_entry(ctx, dirfd(d), prefix, names[i], depth);
        closedir(d);
        return r;
}

int sysext_tree_digest(int dir_fd, char ret_hex[65]) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        unsigned char md[32];
        int fd, r;

        if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
                EVP_MD_CTX_free(ctx);
                return -ENOMEM;
        }
        fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 3);
        r = fd < 0 ? -errno : digest_dir(ctx, fd, "", 0);
        if (r >= 0) {
                EVP_DigestFinal_ex(ctx, md, NULL);
                sha256_to_hex(md, ret_hex);
        }
        EVP_MD_CTX_free(ctx);
        return r;
}

int sysext_image_digest(const char *path, SysextDigestKind *ret_kind, char **ret_hex) {
        char hex[65];
        struct stat st;
        int fd, r;

        assert(path);
        assert(ret_kind);
        assert(ret_hex);

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        if (S_ISDIR(st.st_mode)) {
                r = sysext_tree_digest(fd, hex);
                close(fd);
                *ret_kind = SYSEXT_DIGEST_TREE;
                return r < 0 ? r : (*ret_hex = strdup(hex)) ? 0 : -ENOMEM;
        }
        r = image_root_hash(path, ret_hex);
        if (r != 0) {
                close(fd);
                *ret_kind = SYSEXT_DIGEST_VERITY;
                return r < 0 ? r : 0;
        }
        r = sha256_fd(fd, hex);
        close(fd);
        *ret_kind = SYSEXT_DIGEST_SHA256;
        return r < 0 ? r : (*ret_hex = strdup(hex)) ? 0 : -ENOMEM;
}

char *sysext_event_text(const char *name, SysextDigestKind kind, const char *hex) {
        char *s = NULL;

        assert(name);
        assert(hex);
        return asprintf(&s, "sysext:%s:%s:%s", name, sysext_digest_kind_name(kind), hex) < 0 ? NULL : s;
}

int sysext_event_text_of_image(const char *path, char **ret) {
        _cleanup_free_ char *name = NULL, *hex = NULL;
        SysextDigestKind kind;
        int r;

        r = sysext_name_from_path(path, &name);
        if (r < 0)
                return r;
        r = sysext_image_digest(path, &kind, &hex);
        if (r < 0)
                return r;
        *ret = sysext_event_text(name, kind, hex);
        return *ret ? 0 : -ENOMEM;
}
