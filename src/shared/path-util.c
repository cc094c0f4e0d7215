/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Path helpers: validity and normalization as systemd defines them.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "macro.h"
#include "path-util.h"
#include "string-util.h"

bool path_is_valid(const char *p) {
        size_t component = 0, total = 0;

        if (isempty(p))
                return false;

        for (; *p; p++, total++) {
                if (*p == '/')
                        component = 0;
                else if (++component > NAME_MAX)
                        return false;
        }
        return total < PATH_MAX;
}

static bool is_dot_or_dot_dot(const char *s, size_t n) {
        return (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.');
}

bool path_is_normalized(const char *p) {
        if (!path_is_valid(p))
                return false;
        if (strstr(p, "//"))
                return false;

        for (const char *s = p; *s;) {
                size_t n = strcspn(s, "/");

                if (is_dot_or_dot_dot(s, n))
                        return false;
                s += n;
                s += strspn(s, "/");
        }
        return true;
}

bool filename_is_valid(const char *p) {
        size_t n;

        if (isempty(p) || strchr(p, '/'))
                return false;
        n = strlen(p);
        return n <= NAME_MAX && !is_dot_or_dot_dot(p, n);
}

char *path_simplify(char *p) {
        char *w = p;
        const char *r = p;
        bool absolute;

        if (isempty(p))
                return p;

        absolute = *r == '/';
        r += strspn(r, "/");
        if (absolute)
                *w++ = '/';

        while (*r) {
                size_t n = strcspn(r, "/");

                if (!(n == 1 && r[0] == '.')) {
                        if (w > p && w[-1] != '/')
                                *w++ = '/';
                        memmove(w, r, n);
                        w += n;
                }
                r += n;
                r += strspn(r, "/");
        }

        /* "./" on its own simplifies to ".", not to the empty string */
        if (w == p)
                *w++ = '.';
        *w = 0;
        return p;
}

char *path_join(const char *a, const char *b) {
        size_t la = strlen(a);
        char *j;

        assert(a);
        assert(b);

        while (la > 0 && a[la - 1] == '/')
                la--;
        b += strspn(b, "/");

        j = malloc(la + 1 + strlen(b) + 1);
        if (!j)
                return NULL;
        memcpy(j, a, la);
        j[la] = '/';
        strcpy(j + la + 1, b);
        return j;
}

int path_extract_filename(const char *p, char **ret) {
        size_t end, start;
        char *c;

        assert(ret);

        if (isempty(p))
                return -EINVAL;

        end = strlen(p);
        while (end > 0 && p[end - 1] == '/')
                end--;
        if (end == 0)
                c = strdup("/");
        else {
                start = end;
                while (start > 0 && p[start - 1] != '/')
                        start--;
                c = strndup(p + start, end - start);
        }
        if (!c)
                return -ENOMEM;
        *ret = c;
        return 0;
}

int path_extract_directory(const char *p, char **ret) {
        size_t end;
        char *c;

        assert(ret);

        if (isempty(p))
                return -EINVAL;

        end = strlen(p);
        while (end > 0 && p[end - 1] == '/')
                end--;
        while (end > 0 && p[end - 1] != '/')
                end--;
        while (end > 1 && p[end - 1] == '/')
                end--;

        if (end == 0)
                c = strdup(".");
        else
                c = strndup(p, end);
        if (!c)
                return -ENOMEM;
        *ret = c;
        return 0;
}

/* The entry of dir equal to name but for case, or -ENOENT. */
static int find_caseless(const char *dir, const char *name, char **ret) {
        _cleanup_(closedirp) DIR *d = opendir(dir);
        struct dirent *de;

        if (!d)
                return -errno;
        while ((de = readdir(d)))
                if (strcasecmp(de->d_name, name) == 0) {
                        *ret = path_join(dir, de->d_name);
                        return *ret ? 0 : -ENOMEM;
                }
        return -ENOENT;
}

int path_join_caseless(const char *root, const char *rel, char **ret) {
        _cleanup_free_ char *copy = strdup(rel), *at = strdup(root);
        char *save = NULL;

        assert(root);
        assert(rel);
        assert(ret);

        if (!copy || !at)
                return -ENOMEM;
        for (char *c = copy; *c; c++)
                if (*c == '\\')
                        *c = '/';
        for (char *name = strtok_r(copy, "/", &save); name; name = strtok_r(NULL, "/", &save)) {
                char *next = path_join(at, name);
                int r;

                if (!next)
                        return -ENOMEM;
                if (access(next, F_OK) < 0) {
                        free(next);
                        r = find_caseless(at, name, &next);
                        if (r < 0)
                                return r;
                }
                free(at);
                at = next;
        }
        *ret = TAKE_PTR(at);
        return 0;
}
