/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Byte-string helpers that need no libc.
 */
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "assert-fundamental.h"
#include "string-fundamental.h"

size_t fstrlen(const char *s) {
        size_t n = 0;

        fassert(s);

        while (s[n])
                n++;
        return n;
}

size_t fstrnlen(const char *s, size_t max) {
        size_t n = 0;

        fassert(s || max == 0);

        while (n < max && s[n])
                n++;
        return n;
}

int fstrcmp(const char *a, const char *b) {
        fassert(a);
        fassert(b);

        for (;; a++, b++) {
                if (*a != *b)
                        return CMP((unsigned char) *a, (unsigned char) *b);
                if (*a == 0)
                        return 0;
        }
}

int fstrncmp(const char *a, const char *b, size_t n) {
        fassert(a || n == 0);
        fassert(b || n == 0);

        for (; n > 0; n--, a++, b++) {
                if (*a != *b)
                        return CMP((unsigned char) *a, (unsigned char) *b);
                if (*a == 0)
                        return 0;
        }
        return 0;
}

bool fstreq(const char *a, const char *b) {
        fassert(a);
        fassert(b);

        return fstrcmp(a, b) == 0;
}

int fmemcmp(const void *a, const void *b, size_t n) {
        const unsigned char *x = a, *y = b;

        fassert(a);
        fassert(b || n == 0);

        for (size_t i = 0; i < n; i++)
                if (x[i] != y[i])
                        return CMP(x[i], y[i]);
        return 0;
}

void *fmemcpy(void *dest, const void *src, size_t n) {
        unsigned char *d = dest;
        const unsigned char *s = src;

        fassert(dest || n == 0);
        fassert(src || n == 0);

        for (size_t i = 0; i < n; i++)
                d[i] = s[i];
        return dest;
}

void *fmemset(void *dest, int c, size_t n) {
        unsigned char *d = dest;

        fassert(dest || n == 0);

        for (size_t i = 0; i < n; i++)
                d[i] = (unsigned char) c;
        return dest;
}

char *fstrndup(const char *s, size_t n) {
        char *p;

        fassert(s || n == 0);

        n = fstrnlen(s, n);
        p = fmalloc(n + 1);
        if (!p)
                return NULL;
        fmemcpy(p, s, n);
        p[n] = 0;
        return p;
}

char *fstrdup(const char *s) {
        fassert(s);

        return fstrndup(s, fstrlen(s));
}

const char *fstartswith(const char *s, const char *prefix) {
        size_t n = fstrlen(prefix);

        fassert(s);
        fassert(prefix);

        if (fstrncmp(s, prefix, n) != 0)
                return NULL;
        return s + n;
}

int fparse_uint64(const char *s, size_t n, uint64_t max, uint64_t *ret) {
        uint64_t v = 0;

        fassert(s || n == 0);
        fassert(ret);

        if (n == 0)
                return -EINVAL;
        /* Not a number is what "12345678901x" is first, whatever its digits add up to. */
        for (size_t i = 0; i < n; i++)
                if (!fascii_isdigit(s[i]))
                        return -EINVAL;
        for (size_t i = 0; i < n; i++) {
                unsigned d = (unsigned) (s[i] - '0');

                if (v > (max - d) / 10)
                        return -ERANGE;
                v = v * 10 + d;
        }
        *ret = v;
        return 0;
}

bool fstrcaseeq(const char *a, const char *b) {
        fassert(a);
        fassert(b);

        for (; *a && *b; a++, b++)
                if (fascii_tolower(*a) != fascii_tolower(*b))
                        return false;
        return *a == *b;
}

const char *fendswith_no_case(const char *s, const char *suffix) {
        size_t ls = fstrlen(s), lx = fstrlen(suffix);

        fassert(s);
        fassert(suffix);

        if (lx > ls || !fstrcaseeq(s + ls - lx, suffix))
                return NULL;
        return s + ls - lx;
}

size_t fformat_uint(uint64_t v, char *buf) {
        char tmp[21];
        size_t n = 0;

        fassert(buf);

        do
                tmp[n++] = (char) ('0' + v % 10);
        while ((v /= 10));
        for (size_t i = 0; i < n; i++)
                buf[i] = tmp[n - 1 - i];
        buf[n] = 0;
        return n;
}

