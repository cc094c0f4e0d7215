/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Version comparison with systemd's strverscmp_improved() rules.
 */
#include "string-fundamental.h"
#include "version.h"

static bool is_version_char(char c) {
        return fascii_isalnum(c) || c == '~' || c == '-' || c == '^' || c == '.';
}

static const char *skip_separators(const char *s) {
        while (*s && !is_version_char(*s))
                s++;
        return s;
}

/* For "~", "-", "^" and ".": the side *not* at the marker is newer. Returns 0 when both are at it,
 * 2 when neither is (so the caller goes on), else the comparison result. */
static int compare_marker(const char *a, const char *b, char marker) {
        if (*a != marker && *b != marker)
                return 2;
        if (*a != marker)
                return 1;
        if (*b != marker)
                return -1;
        return 0;
}

static size_t run_length(const char *s, bool (*is_member)(char)) {
        size_t n = 0;

        while (is_member(s[n]))
                n++;
        return n;
}

static bool is_digit(char c) {
        return fascii_isdigit(c);
}

static bool is_alpha(char c) {
        return fascii_isalpha(c);
}

static bool is_zero(char c) {
        return c == '0';
}

/* Compares the numeric runs at a and b and advances both past them. */
static int compare_numeric(const char **a, const char **b) {
        size_t la = run_length(*a, is_digit), lb = run_length(*b, is_digit);
        size_t za, zb;
        int r;

        /* A numeric run, even "0", is newer than none at all. */
        r = CMP(la > 0, lb > 0);
        if (r != 0)
                return r;

        za = MIN(run_length(*a, is_zero), la);
        zb = MIN(run_length(*b, is_zero), lb);
        r = CMP(la - za, lb - zb);
        if (r == 0)
                r = fmemcmp(*a + za, *b + zb, la - za);

        *a += la;
        *b += lb;
        return r;
}

/* Compares the letter runs at a and b and advances both past them. */
static int compare_alpha(const char **a, const char **b) {
        size_t la = run_length(*a, is_alpha), lb = run_length(*b, is_alpha);
        int r;

        r = fstrncmp(*a, *b, MIN(la, lb));
        if (r == 0)
                r = CMP(la, lb);

        *a += la;
        *b += lb;
        return r;
}

int version_compare(const char *a, const char *b) {
        static const char markers_after_end[] = { '-', '^', '.' };

        if (!a)
                a = "";
        if (!b)
                b = "";

        for (;;) {
                int r;
                bool stepped = false;

                a = skip_separators(a);
                b = skip_separators(b);

                r = compare_marker(a, b, '~');
                if (r == 0) {
                        a++, b++;
                        continue;
                }
                if (r != 2)
                        return r;

                if (*a == 0 || *b == 0)
                        return CMP((unsigned char) *a, (unsigned char) *b);

                for (size_t i = 0; i < ELEMENTSOF(markers_after_end); i++) {
                        r = compare_marker(a, b, markers_after_end[i]);
                        if (r == 0) {
                                a++, b++;
                                stepped = true;
                                break;
                        }
                        if (r != 2)
                                return r;
                }
                if (stepped)
                        continue;

                if (fascii_isdigit(*a) || fascii_isdigit(*b))
                        r = compare_numeric(&a, &b);
                else
                        r = compare_alpha(&a, &b);
                if (r != 0)
                        return r;
        }
}
