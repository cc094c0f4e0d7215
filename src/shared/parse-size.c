/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Sizes with base-1024 suffixes.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "parse-size.h"

static int suffix_factor(const char *s, uint64_t *ret) {
        static const char suffixes[] = "BKMGTPE";
        const char *p;

        if (!*s) {
                *ret = 1;
                return 0;
        }
        if (s[1] || !(p = strchr(suffixes, *s)))
                return -EINVAL;
        *ret = UINT64_C(1) << (10 * (p - suffixes));
        return 0;
}

int parse_size(const char *s, uint64_t *ret) {
        uint64_t whole = 0, factor, frac_num = 0, frac_den = 1;
        const char *p = s;
        int r;

        assert(ret);

        if (!s || *s < '0' || *s > '9')
                return -EINVAL;
        for (; *p >= '0' && *p <= '9'; p++) {
                if (whole > (UINT64_MAX - (uint64_t) (*p - '0')) / 10)
                        return -ERANGE;
                whole = whole * 10 + (uint64_t) (*p - '0');
        }
        if (*p == '.') {
                p++;
                if (*p < '0' || *p > '9')
                        return -EINVAL;
                /* Digits past the 18th cannot change a byte count below 2^64 / 10^18. */
                for (unsigned n = 0; *p >= '0' && *p <= '9'; p++, n++)
                        if (n < 18) {
                                frac_num = frac_num * 10 + (uint64_t) (*p - '0');
                                frac_den *= 10;
                        }
        }
        r = suffix_factor(p, &factor);
        if (r < 0)
                return r;
        if (whole > UINT64_MAX / factor)
                return -ERANGE;
        whole *= factor;
        /* The fraction, in whole bytes (rounded down), without overflowing: factor ≤ 2^60, frac < 1. */
        if (frac_num > 0) {
                uint64_t add = (uint64_t) ((unsigned __int128) frac_num * factor / frac_den);

                if (whole > UINT64_MAX - add)
                        return -ERANGE;
                whole += add;
        }
        *ret = whole;
        return 0;
}
