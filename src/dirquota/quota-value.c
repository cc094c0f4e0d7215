/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading …DirectoryQuota= values with the exact rules of systemd v258 (sizes as parse_size() with base
 * 1024, shares as parse_permyriad()), so a unit means the same to urlboot on 252 as to systemd on 258.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "quota-value.h"
#include "string-util.h"

/* What systemd skips before numbers; strtoull()/strtol() themselves skip a little more (\v, \f). */
#define QUOTA_WHITESPACE " \t\n\r"

static const struct {
        const char *suffix;
        unsigned long long factor;
} size_suffixes[] = {
        { "E", 1ULL << 60 },
        { "P", 1ULL << 50 },
        { "T", 1ULL << 40 },
        { "G", 1ULL << 30 },
        { "M", 1ULL << 20 },
        { "K", 1ULL << 10 },
        { "B", 1 },
        { "", 1 },              /* no suffix: bytes; always matches, so it must stay last */
};

/* Reads the digits after a decimal point as a fraction, dividing once per digit (systemd's rounding). */
static int parse_fraction(const char **p, double *ret) {
        const char *s = *p;
        unsigned long long digits;
        char *end;
        double f;

        if (*s < '0' || *s > '9') {
                /* "10.M" is a size: the point alone is allowed */
                *ret = 0;
                return 0;
        }
        errno = 0;
        digits = strtoull(s, &end, 10);
        if (errno > 0)
                return -errno;
        f = (double) digits;
        for (; s < end; s++)
                f /= 10;
        *p = end;
        *ret = f;
        return 0;
}

int quota_parse_size(const char *s, uint64_t *ret) {
        unsigned long long total = 0;
        size_t first_suffix = 0;
        const char *p = s;
        int r;

        assert(s);
        assert(ret);

        do {
                unsigned long long whole, term, factor;
                double fraction = 0;
                char *end;
                size_t i;

                p += strspn(p, QUOTA_WHITESPACE);
                errno = 0;
                whole = strtoull(p, &end, 10);
                if (errno > 0)
                        return -errno;
                if (end == p)
                        return -EINVAL;
                if (*p == '-')
                        return -ERANGE;

                if (*end == '.') {
                        const char *q = end + 1;

                        r = parse_fraction(&q, &fraction);
                        if (r < 0)
                                return r;
                        end = (char *) q;
                }
                end += strspn(end, QUOTA_WHITESPACE);

                /* Each further term needs a smaller unit than the one before: "1G 512M", not "1M 1G". */
                for (i = first_suffix; i < ELEMENTSOF(size_suffixes); i++)
                        if (startswith(end, size_suffixes[i].suffix))
                                break;
                if (i >= ELEMENTSOF(size_suffixes))
                        return -EINVAL;
                factor = size_suffixes[i].factor;

                /* Overflow checks in the same (wrapping) arithmetic as systemd, so the same values pass. */
                if (whole + (fraction > 0) > ULLONG_MAX / factor)
                        return -ERANGE;
                term = whole * factor + (unsigned long long) (fraction * (double) factor);
                if (term > ULLONG_MAX - total)
                        return -ERANGE;
                total += term;

                p = end + strlen(size_suffixes[i].suffix);
                first_suffix = i + 1;
        } while (*p);

        *ret = total;
        return 0;
}

/* systemd's safe_atoi(): leading whitespace, a sign, "0x"/"0" (C's bases) and "0b"/"0o" prefixes. */
static int parse_int(const char *s, size_t len, int *ret) {
        _cleanup_free_ char *buf = strndup(s, len);
        const char *p;
        char *end;
        int base = 0;
        long v;

        if (!buf)
                return -ENOMEM;
        p = buf + strspn(buf, QUOTA_WHITESPACE);
        if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
                base = 2;
                p += 2;
        } else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
                base = 8;
                p += 2;
        }

        errno = 0;
        v = strtol(p, &end, base);
        if (errno > 0)
                return -errno;
        if (end == p || *end != 0)
                return -EINVAL;
        if ((long) (int) v != v)
                return -ERANGE;
        *ret = (int) v;
        return 0;
}

/*
 * "INT[.D…]SYMBOL" with up to max_places digits after the point (0: no point allowed), in units of
 * 10^-max_places. With two places, one digit counts as tenths ("0.5%" is 50 hundredths).
 */
static int parse_scaled(const char *s, const char *symbol, int max_places) {
        const char *sym = endswith(s, symbol), *dot;
        int r, v, places = 0, frac = 0, unit = 1;

        if (!sym)
                return -EINVAL;
        for (int i = 0; i < max_places; i++)
                unit *= 10;

        dot = max_places > 0 ? memchr(s, '.', sym - s) : NULL;
        if (dot) {
                places = (int) (sym - dot - 1);
                if (places < 1 || places > max_places)
                        return -EINVAL;
                for (int i = 1; i <= places; i++) {
                        if (dot[i] < '0' || dot[i] > '9')
                                return -EINVAL;
                        frac = frac * 10 + (dot[i] - '0');
                }
                for (int i = places; i < max_places; i++)
                        frac *= 10;
        }

        r = parse_int(s, (dot ?: sym) - s, &v);
        if (r < 0)
                return r;
        if (v < 0)
                return -ERANGE;
        if (v > (INT_MAX - frac) / unit)
                return -ERANGE;
        return v * unit + frac;
}

int quota_parse_permyriad(const char *s) {
        int v;

        assert(s);

        if (endswith(s, "‱"))
                v = parse_scaled(s, "‱", 0);
        else if (endswith(s, "‰"))
                v = parse_scaled(s, "‰", 1);
        else
                v = parse_scaled(s, "%", 2);
        if (v < 0)
                return v;
        return v > 10000 ? -ERANGE : v;
}

uint32_t quota_scale_from_permyriad(int permyriad) {
        uint64_t p = permyriad < 0 ? 0 : permyriad > 10000 ? 10000 : (uint64_t) permyriad;

        return (uint32_t) ((p * UINT32_MAX + 5000) / 10000);
}

int quota_limit_parse(const char *value, QuotaLimit *q) {
        uint64_t bytes;
        int r;

        assert(q);

        if (isempty(value) || streq(value, "off")) {
                /* accounting is a setting of its own and stays */
                q->absolute = UINT64_MAX;
                q->scale = UINT32_MAX;
                q->enforce = false;
                return 0;
        }

        r = quota_parse_permyriad(value);
        if (r >= 0) {
                q->absolute = UINT64_MAX;
                q->scale = quota_scale_from_permyriad(r);
                q->enforce = true;
                return 0;
        }

        r = quota_parse_size(value, &bytes);
        if (r < 0)
                return r;
        q->absolute = bytes;
        q->scale = UINT32_MAX;
        q->enforce = true;
        return 0;
}
