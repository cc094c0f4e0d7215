/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * String and string-vector helpers for userspace.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <strings.h>

#include "string-util.h"

char *startswith(const char *s, const char *prefix) {
        size_t n = strlen(prefix);

        assert(s);
        assert(prefix);

        return strncmp(s, prefix, n) == 0 ? (char *) s + n : NULL;
}

char *endswith(const char *s, const char *suffix) {
        size_t ls = strlen(s), lx = strlen(suffix);

        assert(s);
        assert(suffix);

        if (lx > ls || memcmp(s + ls - lx, suffix, lx) != 0)
                return NULL;
        return (char *) s + ls - lx;
}

int parse_boolean(const char *s) {
        static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
        static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

        if (!s)
                return -EINVAL;
        for (size_t i = 0; i < ELEMENTSOF(yes); i++)
                if (strcasecmp(s, yes[i]) == 0)
                        return 1;
        for (size_t i = 0; i < ELEMENTSOF(no); i++)
                if (strcasecmp(s, no[i]) == 0)
                        return 0;
        return -EINVAL;
}

int unhexchar(char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -EINVAL;
}

bool string_has_cc(const char *s) {
        assert(s);

        for (; *s; s++)
                if ((unsigned char) *s < ' ' || *s == 0x7f)
                        return true;
        return false;
}

char *escape_cc(const char *s) {
        char *r = malloc(strlen(s) * 4 + 1), *o = r;

        assert(s);

        if (!r)
                return NULL;
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;

                if (c < ' ' || c == 0x7f)
                        o += sprintf(o, "\\x%02x", c);
                else
                        *o++ = (char) c;
        }
        *o = 0;
        return r;
}

char *strextend(char **p, ...) {
        size_t len = *p ? strlen(*p) : 0, add = 0;
        const char *s;
        va_list ap;
        char *n;

        assert(p);

        va_start(ap, p);
        while ((s = va_arg(ap, const char *)))
                add += strlen(s);
        va_end(ap);

        n = realloc(*p, len + add + 1);
        if (!n)
                return NULL;

        va_start(ap, p);
        while ((s = va_arg(ap, const char *))) {
                size_t l = strlen(s);
                memcpy(n + len, s, l);
                len += l;
        }
        va_end(ap);
        n[len] = 0;

        *p = n;
        return n;
}

size_t strv_length(char *const *l) {
        size_t n = 0;

        while (l && l[n])
                n++;
        return n;
}

int strv_consume(char ***l, char *s) {
        size_t n = strv_length(*l);
        char **m;

        assert(l);

        if (!s)
                return -ENOMEM;
        m = realloc(*l, sizeof(char *) * (n + 2));
        if (!m) {
                free(s);
                return -ENOMEM;
        }
        m[n] = s;
        m[n + 1] = NULL;
        *l = m;
        return 0;
}

int strv_extend(char ***l, const char *s) {
        assert(l);
        assert(s);

        return strv_consume(l, strdup(s));
}

bool strv_contains(char *const *l, const char *s) {
        assert(s);

        STRV_FOREACH(i, l)
                if (streq(*i, s))
                        return true;
        return false;
}

char **strv_free(char **l) {
        STRV_FOREACH(i, l)
                free(*i);
        free(l);
        return NULL;
}

size_t string_distance(const char *a, const char *b) {
        size_t la = strlen(a), lb = strlen(b), row[256];

        if (la > 255 || lb > 255)
                return SIZE_MAX;
        /* Wagner-Fischer with one row: row[j] is the distance of a[0..i) to b[0..j) */
        for (size_t j = 0; j <= lb; j++)
                row[j] = j;
        for (size_t i = 1; i <= la; i++) {
                size_t diagonal = row[0];

                row[0] = i;
                for (size_t j = 1; j <= lb; j++) {
                        size_t above = row[j];

                        row[j] = MIN(MIN(above + 1, row[j - 1] + 1), diagonal + (a[i - 1] != b[j - 1]));
                        diagonal = above;
                }
        }
        return row[lb];
}

const char *string_closest(const char *s, const char *const *candidates) {
        size_t limit = MIN(MAX(strlen(s) / 3, (size_t) 1), (size_t) 3), best = SIZE_MAX;
        const char *found = NULL;

        for (const char *const *c = candidates; *c; c++) {
                size_t d = string_distance(s, *c);

                if (d <= limit && d < best)
                        best = d, found = *c;
        }
        return found;
}
