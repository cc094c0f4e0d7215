/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The few HTTP response headers urlboot-pull reads.
 */
#include <assert.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http-headers.h"
#include "macro.h"

char *http_header_value(const char *line, size_t n, const char *name) {
        size_t l;
        const char *v;
        size_t vl;

        assert(line || n == 0);
        assert(name);

        l = strlen(name);
        if (n <= l || strncasecmp(line, name, l) != 0 || line[l] != ':')
                return NULL;
        v = line + l + 1;
        vl = n - l - 1;
        while (vl > 0 && (*v == ' ' || *v == '\t'))
                v++, vl--;
        while (vl > 0 && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' ' || v[vl - 1] == '\t'))
                vl--;
        for (size_t i = 0; i < vl; i++)
                if ((unsigned char) v[i] < ' ' || v[i] == 0x7f)
                        return NULL;
        return strndup(v, vl);
}

bool http_connection_closes(const char *value) {
        const char *p = value;

        while (p && *p) {
                size_t l;

                p += strspn(p, " \t,");
                l = strcspn(p, " \t,");
                if (l == 5 && strncasecmp(p, "close", 5) == 0)
                        return true;
                p += l;
        }
        return false;
}

int http_content_range_parse(const char *s, uint64_t *ret_first, uint64_t *ret_last, int64_t *ret_total) {
        unsigned long long first, last, total;
        int end = 0;

        assert(ret_first);
        assert(ret_last);
        assert(ret_total);

        if (!s || strchr(s, '-') == NULL || s[strspn(s, "bytes 0123456789-/*")] != 0)
                return -EBADMSG;
        if (sscanf(s, "bytes %llu-%llu/%llu%n", &first, &last, &total, &end) == 3 && s[end] == 0 &&
            last >= first && total > last && total <= INT64_MAX) {
                *ret_total = (int64_t) total;
        } else if (sscanf(s, "bytes %llu-%llu/*%n", &first, &last, &end) == 2 && s[end] == 0 && last >= first &&
                   last < INT64_MAX) {
                *ret_total = -1;
        } else
                return -EBADMSG;
        *ret_first = first;
        *ret_last = last;
        return 0;
}

unsigned http_retry_after_parse(const char *value, time_t now) {
        char *end;
        long s;
        time_t t;

        if (!value || !*value)
                return 0;
        errno = 0;
        s = strtol(value, &end, 10);
        if (!*end && errno == 0)
                return s > 0 ? (unsigned) MIN(s, (long) HTTP_RETRY_AFTER_MAX) : 0;
        t = curl_getdate(value, NULL);
        if (t == -1 || t <= now)
                return 0;
        return (unsigned) MIN((long long) (t - now), (long long) HTTP_RETRY_AFTER_MAX);
}
