/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The Range header.
 */
#include <assert.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "http-range.h"

static const char *skip_space(const char *s) {
        while (*s == ' ' || *s == '\t')
                s++;
        return s;
}

/* Decimal digits into *ret; NULL when there are none or they overflow. */
static const char *parse_number(const char *s, uint64_t *ret) {
        uint64_t v = 0;

        if (*s < '0' || *s > '9')
                return NULL;
        for (; *s >= '0' && *s <= '9'; s++) {
                if (v > (UINT64_MAX - (uint64_t) (*s - '0')) / 10)
                        return NULL;
                v = v * 10 + (uint64_t) (*s - '0');
        }
        *ret = v;
        return s;
}

RangeAnswer http_range_parse(const char *value, uint64_t size, uint64_t *first, uint64_t *last) {
        uint64_t a, b = UINT64_MAX;
        const char *s;
        bool suffix;

        assert(first);
        assert(last);

        if (!value)
                return RANGE_WHOLE;
        s = skip_space(value);
        if (strncasecmp(s, "bytes=", 6) != 0)
                return RANGE_WHOLE;
        s = skip_space(s + 6);
        suffix = *s == '-';
        if (suffix)
                s++;
        s = parse_number(s, &a);
        if (!s)
                return RANGE_WHOLE;
        if (!suffix) {
                if (*s++ != '-')
                        return RANGE_WHOLE;
                if (*s >= '0' && *s <= '9') {
                        s = parse_number(s, &b);
                        if (!s || b < a)
                                return RANGE_WHOLE;     /* invalid: ignored, as the RFC says */
                }
        }
        s = skip_space(s);
        if (*s != 0)
                return RANGE_WHOLE;     /* several ranges (or garbage): the whole resource */
        if (suffix) {
                /* the last a bytes */
                if (a == 0 || size == 0)
                        return RANGE_UNSATISFIABLE;
                *first = a >= size ? 0 : size - a;
                *last = size - 1;
                return RANGE_PART;
        }
        if (a >= size)
                return RANGE_UNSATISFIABLE;
        *first = a;
        *last = b >= size ? size - 1 : b;
        return RANGE_PART;
}
