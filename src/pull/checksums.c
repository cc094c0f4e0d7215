/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA256SUMS files.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "checksums.h"
#include "import-types.h"

typedef struct Span {
        const char *p;
        size_t n;
} Span;

static bool span_eat_prefix(Span *s, const char *prefix) {
        size_t l = strlen(prefix);

        if (s->n < l || memcmp(s->p, prefix, l) != 0)
                return false;
        s->p += l;
        s->n -= l;
        return true;
}

static bool span_eat_suffix(Span *s, const char *suffix) {
        size_t l = strlen(suffix);

        if (s->n < l || memcmp(s->p + s->n - l, suffix, l) != 0)
                return false;
        s->n -= l;
        return true;
}

/* The name as listed equals name, also when it is written "./name". */
static bool span_names(Span listed, const char *name) {
        size_t l = strlen(name);

        (void) span_eat_prefix(&listed, "./");
        return listed.n == l && memcmp(listed.p, name, l) == 0;
}

/* "HEX  NAME", "HEX *NAME" or "HEX NAME": the digest span if the line lists name. */
static bool gnu_line(Span line, const char *name, Span *ret_hex) {
        Span rest;

        if (line.n < 66 || line.p[64] != ' ')
                return false;
        rest = (Span) { line.p + 65, line.n - 65 };
        if (!span_eat_prefix(&rest, " "))
                (void) span_eat_prefix(&rest, "*");
        if (!span_names(rest, name))
                return false;
        *ret_hex = (Span) { line.p, 64 };
        return true;
}

/* "SHA256 (NAME) = HEX" */
static bool bsd_line(Span line, const char *name, Span *ret_hex) {
        Span rest = line;

        if (!span_eat_prefix(&rest, "SHA256 (") || rest.n < 64 + 4)
                return false;
        *ret_hex = (Span) { rest.p + rest.n - 64, 64 };
        rest.n -= 64;
        if (!span_eat_suffix(&rest, ") = "))
                return false;
        return span_names(rest, name);
}

int checksums_find(const char *text, size_t size, const char *name, char ret_hex[65]) {
        const char *p = text, *end = text + size;

        assert(text || size == 0);
        assert(name);
        assert(ret_hex);

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t) (end - p));
                Span line = { p, (size_t) ((nl ?: end) - p) }, hex;

                p = nl ? nl + 1 : end;
                (void) span_eat_suffix(&line, "\r");
                if (!gnu_line(line, name, &hex) && !bsd_line(line, name, &hex))
                        continue;
                /* sha256_hex_normalize() reads exactly 64 characters: the span has them. */
                return sha256_hex_normalize(hex.p, ret_hex) < 0 ? -EBADMSG : 0;
        }
        return -ENOENT;
}
