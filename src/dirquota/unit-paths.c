/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The unit search path, fragments and drop-ins, as systemd 252 resolves them.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "path-util.h"
#include "string-util.h"
#include "unit-paths.h"

static const char *const default_search_path[] = {
        "/etc/systemd/system.control",
        "/run/systemd/system.control",
        "/run/systemd/transient",
        "/etc/systemd/system",
        "/etc/systemd/system.attached",
        "/run/systemd/system",
        "/run/systemd/system.attached",
        "/usr/local/lib/systemd/system",
        "/lib/systemd/system",
        "/usr/lib/systemd/system",
};

int unit_search_path(char ***ret) {
        _cleanup_strv_free_ char **l = NULL;
        const char *env = getenv("URLBOOT_UNIT_PATH");
        int r;

        assert(ret);

        if (env) {
                for (const char *p = env; *p;) {
                        size_t n = strcspn(p, ":");

                        if (n > 0) {
                                r = strv_consume(&l, strndup(p, n));
                                if (r < 0)
                                        return r;
                        }
                        p += n + !!p[n];
                }
        } else
                for (size_t i = 0; i < ELEMENTSOF(default_search_path); i++) {
                        r = strv_extend(&l, default_search_path[i]);
                        if (r < 0)
                                return r;
                }
        *ret = TAKE_PTR(l);
        return 0;
}

static int compare_strings(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

static void strv_sort_unique(char **l) {
        size_t n = strv_length(l), k = 0;

        qsort(l, n, sizeof(char *), compare_strings);
        for (size_t i = 0; i < n; i++) {
                if (k > 0 && streq(l[k - 1], l[i])) {
                        free(l[i]);
                        continue;
                }
                l[k++] = l[i];
        }
        if (l)
                l[k] = NULL;
}

/* "foo@bar.service" → "foo@.service"; NULL for names that are not instances. */
static char *template_of(const char *name) {
        const char *at = strchr(name, '@'), *dot = strrchr(name, '.');
        char *t;

        if (!at || !dot || dot <= at + 1)
                return NULL;
        t = malloc(strlen(name) + 1);
        if (!t)
                return NULL;
        memcpy(t, name, at - name + 1);
        strcpy(t + (at - name + 1), dot);
        return t;
}

static bool valid_service_name(const char *name) {
        const char *s = endswith(name, ".service");

        return s && s > name && filename_is_valid(name);
}

static char *join2(const char *a, const char *b) {
        char *s;

        return asprintf(&s, "%s%s", a, b) < 0 ? NULL : s;
}

int unit_names_collect(char *const *search_path, char ***ret) {
        _cleanup_strv_free_ char **names = NULL;
        int r;

        assert(ret);

        STRV_FOREACH(dir, search_path) {
                DIR *d = opendir(*dir);
                struct dirent *de;

                if (!d)
                        continue;       /* most of the path does not exist on a given system */
                while ((de = readdir(d))) {
                        _cleanup_free_ char *name = NULL;
                        const char *dropin = endswith(de->d_name, ".service.d");
                        char *tmpl;

                        if (dropin) {
                                /* an instance's own drop-ins make it a unit to look at */
                                name = strndup(de->d_name, strlen(de->d_name) - 2);
                                if (!name)
                                        goto oom;
                                tmpl = template_of(name);
                                if (!tmpl)
                                        continue;
                                free(tmpl);
                        } else if (valid_service_name(de->d_name)) {
                                name = strdup(de->d_name);
                                if (!name)
                                        goto oom;
                        } else
                                continue;
                        r = strv_consume(&names, TAKE_PTR(name));
                        if (r < 0)
                                goto oom;
                }
                closedir(d);
                continue;
        oom:
                closedir(d);
                return -ENOMEM;
        }
        strv_sort_unique(names);
        *ret = TAKE_PTR(names);
        return 0;
}

/* Classifies dir/name: 1 a unit file, 0 absent, or the negative errno unit_fragment_find() documents. */
static int check_fragment(const char *dir, const char *name, char **ret_path) {
        _cleanup_free_ char *path = path_join(dir, name), *target = NULL;
        struct stat st;

        if (!path)
                return -ENOMEM;
        if (lstat(path, &st) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (S_ISLNK(st.st_mode)) {
                _cleanup_free_ char *base = NULL;

                target = realpath(path, NULL);
                if (!target)
                        return errno == ENOENT ? -ERFKILL : -errno;     /* dangling: nothing to load */
                if (streq(target, "/dev/null"))
                        return -ERFKILL;
                if (path_extract_filename(target, &base) < 0)
                        return -ENOMEM;
                if (!streq(base, name))
                        return -EXDEV;
                if (stat(target, &st) < 0)
                        return -errno;
        }
        if (!S_ISREG(st.st_mode))
                return 0;
        if (st.st_size == 0)
                return -ERFKILL;
        *ret_path = TAKE_PTR(path);
        return 1;
}

int unit_fragment_find(char *const *search_path, const char *name, char **ret_path) {
        _cleanup_free_ char *tmpl = template_of(name);
        int r;

        assert(name);
        assert(ret_path);

        STRV_FOREACH(dir, search_path) {
                r = check_fragment(*dir, name, ret_path);
                if (r != 0)
                        return r < 0 ? r : 0;
        }
        if (tmpl)
                STRV_FOREACH(dir, search_path) {
                        r = check_fragment(*dir, tmpl, ret_path);
                        if (r != 0)
                                return r < 0 ? r : 0;
                }
        return -ENOENT;
}

/* The drop-in directory names for a unit, most specific first. */
static int dropin_dir_names(const char *name, char ***ret) {
        _cleanup_strv_free_ char **l = NULL;
        _cleanup_free_ char *tmpl = template_of(name), *prefix = NULL;
        const char *suffix = strrchr(name, '.');
        char *dash;
        int r;

        r = strv_consume(&l, join2(name, ".d"));
        if (r >= 0 && tmpl)
                r = strv_consume(&l, join2(tmpl, ".d"));
        if (r < 0)
                return r;

        /* "a-b-c.service": "a-b-.service.d", then "a-.service.d" */
        prefix = strndup(name, suffix - name);
        if (!prefix)
                return -ENOMEM;
        while ((dash = strrchr(prefix, '-'))) {
                _cleanup_free_ char *d = NULL;

                dash[1] = 0;
                if (asprintf(&d, "%s%s.d", prefix, suffix) < 0)
                        return -ENOMEM;
                r = strv_consume(&l, TAKE_PTR(d));
                if (r < 0)
                        return r;
                dash[0] = 0;
        }
        r = strv_consume(&l, join2(suffix + 1, ".d"));
        if (r < 0)
                return r;
        *ret = TAKE_PTR(l);
        return 0;
}

static int compare_basenames(const void *a, const void *b) {
        const char *x = strrchr(*(char *const *) a, '/'), *y = strrchr(*(char *const *) b, '/');

        return strcmp(x ? x + 1 : *(char *const *) a, y ? y + 1 : *(char *const *) b);
}

static bool basename_seen(char **files, const char *name) {
        STRV_FOREACH(f, files) {
                const char *b = strrchr(*f, '/');

                if (streq(b ? b + 1 : *f, name))
                        return true;
        }
        return false;
}

int unit_dropins_find(char *const *search_path, const char *name, char ***ret) {
        _cleanup_strv_free_ char **dirs = NULL, **files = NULL;
        int r;

        assert(name);
        assert(ret);

        r = dropin_dir_names(name, &dirs);
        if (r < 0)
                return r;

        STRV_FOREACH(sp, search_path)
                STRV_FOREACH(dn, dirs) {
                        _cleanup_free_ char *dir = path_join(*sp, *dn);
                        struct dirent *de;
                        DIR *d;

                        if (!dir)
                                return -ENOMEM;
                        d = opendir(dir);
                        if (!d)
                                continue;
                        while ((de = readdir(d))) {
                                /* hidden files are editors' and tools' temporaries, as for systemd */
                                if (!endswith(de->d_name, ".conf") || de->d_name[0] == '.' ||
                                    (de->d_type != DT_REG && de->d_type != DT_LNK && de->d_type != DT_UNKNOWN) ||
                                    basename_seen(files, de->d_name))
                                        continue;
                                r = strv_consume(&files, path_join(dir, de->d_name));
                                if (r < 0) {
                                        closedir(d);
                                        return r;
                                }
                        }
                        closedir(d);
                }

        if (files)
                qsort(files, strv_length(files), sizeof(char *), compare_basenames);
        *ret = TAKE_PTR(files);
        return 0;
}
