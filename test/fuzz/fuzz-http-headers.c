/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the response headers urlboot-pull reads from servers. Oracles: a header value taken
 * is the line's text after "Name:", trimmed, free of control characters; a Content-Range accepted
 * is consistent (FIRST <= LAST < TOTAL) and reads back the same when written out again; Retry-After
 * never exceeds a day; a Content-Length as the boot manager reads it (fparse_uint64) is the number
 * strtoull() reads from the same digits, refused exactly when it is not all digits or above the limit;
 * a Connection value closes exactly when strtok_r() finds the option "close" among its comma- and
 * blank-separated options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <errno.h>

#include "fuzz.h"
#include "string-fundamental.h"
#include "http-headers.h"

static void check_value(const char *line, size_t size, const char *name) {
        char *v = http_header_value(line, size, name);

        if (!v)
                return;
        /* What it took is in the line, after the colon, and holds nothing a header may not. */
        if (!memmem(line, size, v, strlen(v)) || strncasecmp(line, name, strlen(name)) != 0 ||
            line[strlen(name)] != ':')
                abort();
        for (const char *c = v; *c; c++)
                if ((unsigned char) *c < ' ' || *c == 0x7f)
                        abort();
        if (*v && (v[0] == ' ' || v[strlen(v) - 1] == ' '))
                abort();
        free(v);
}

static void check_content_range(const char *s) {
        uint64_t first, last, first2, last2;
        int64_t total, total2;
        char again[128];

        if (http_content_range_parse(s, &first, &last, &total) < 0)
                return;
        if (last < first || (total >= 0 && (uint64_t) total <= last))
                abort();
        if (total >= 0)
                snprintf(again, sizeof again, "bytes %llu-%llu/%lld", (unsigned long long) first,
                         (unsigned long long) last, (long long) total);
        else
                snprintf(again, sizeof again, "bytes %llu-%llu/*", (unsigned long long) first, (unsigned long long) last);
        if (http_content_range_parse(again, &first2, &last2, &total2) < 0 || first2 != first || last2 != last ||
            total2 != total)
                abort();
}

static void check_number(const char *s, uint64_t max) {
        size_t n = strlen(s);
        bool digits = n > 0 && strspn(s, "0123456789") == n;
        unsigned long long want;
        uint64_t got;
        int r;

        errno = 0;
        want = digits ? strtoull(s, NULL, 10) : 0;
        r = fparse_uint64(s, n, max, &got);
        if (!digits) {
                if (r != -EINVAL)
                        abort();
        } else if (errno == ERANGE || want > max) {
                if (r != -ERANGE)
                        abort();
        } else if (r != 0 || got != want)
                abort();
}

static void check_connection(const char *s) {
        char *copy = strdup(s), *save = NULL;
        bool want = false;

        if (!copy)
                return;
        for (char *t = strtok_r(copy, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save))
                want = want || strcasecmp(t, "close") == 0;
        if (http_connection_closes(s) != want)
                abort();
        free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *s = strndup((const char *) data, size);

        if (!s)
                return 0;
        check_value((const char *) data, size, "ETag");
        check_value((const char *) data, size, "Content-Range");
        check_content_range(s);
        check_connection(s);
        check_number(s, UINT64_MAX);
        check_number(s, 0x7fffffff);
        if (http_retry_after_parse(s, 1700000000) > HTTP_RETRY_AFTER_MAX)
                abort();
        free(s);
        return 0;
}
