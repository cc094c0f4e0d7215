/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemd unit-name escaping.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "path-util.h"
#include "string-util.h"
#include "unit-name.h"

static bool is_unit_name_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' || c == '_' ||
               c == '.';
}

static char *escape_char(char c, char *t) {
        static const char hex[] = "0123456789abcdef";

        *t++ = '\\';
        *t++ = 'x';
        *t++ = hex[(unsigned char) c >> 4];
        *t++ = hex[(unsigned char) c & 15];
        return t;
}

int unit_name_escape(const char *s, char **ret) {
        char *e, *t;

        assert(s);
        assert(ret);

        /* Each byte grows to at most four. */
        e = malloc(strlen(s) * 4 + 1);
        if (!e)
                return -ENOMEM;

        t = e;
        /* No unit name may start with ".": such units would be hidden, as for "/.dotdir" mounts. */
        if (*s == '.')
                t = escape_char(*s++, t);
        for (; *s; s++) {
                if (*s == '/')
                        *t++ = '-';
                else if (is_unit_name_char(*s))
                        *t++ = *s;
                else
                        t = escape_char(*s, t);
        }
        *t = 0;

        *ret = e;
        return 0;
}

int unit_name_path_escape(const char *path, char **ret) {
        _cleanup_free_ char *p = NULL;
        char *s;
        size_t n;

        assert(path);
        assert(ret);

        p = strdup(path);
        if (!p)
                return -ENOMEM;
        path_simplify(p);

        if (isempty(p) || streq(p, "/")) {
                s = strdup("-");
                if (!s)
                        return -ENOMEM;
                *ret = s;
                return 0;
        }
        if (!path_is_normalized(p))
                return -EINVAL;

        n = strlen(p);
        while (n > 0 && p[n - 1] == '/')
                p[--n] = 0;
        return unit_name_escape(p + strspn(p, "/"), ret);
}

int unit_name_unescape(const char *s, char **ret) {
        char *u, *t;

        assert(s);
        assert(ret);

        u = malloc(strlen(s) + 1);
        if (!u)
                return -ENOMEM;

        for (t = u; *s; s++) {
                if (*s == '-')
                        *t++ = '/';
                else if (*s == '\\') {
                        int a, b;

                        if (s[1] != 'x' || (a = unhexchar(s[2])) < 0 || (b = unhexchar(s[3])) < 0) {
                                free(u);
                                return -EINVAL;
                        }
                        *t++ = (char) (a << 4 | b);
                        s += 3;
                } else
                        *t++ = *s;
        }
        *t = 0;

        *ret = u;
        return 0;
}

int unit_name_from_path_instance(const char *prefix, const char *path, const char *suffix, char **ret) {
        _cleanup_free_ char *e = NULL;
        char *n;
        int r;

        assert(prefix);
        assert(path);
        assert(suffix);
        assert(ret);

        r = unit_name_path_escape(path, &e);
        if (r < 0)
                return r;
        if (asprintf(&n, "%s@%s%s", prefix, e, suffix) < 0)
                return -ENOMEM;
        if (strlen(n) > UNIT_NAME_MAX) {
                free(n);
                return -ENAMETOOLONG;
        }
        *ret = n;
        return 0;
}
