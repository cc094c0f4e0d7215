/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the Range header urlboot-serve reads from any client (src/serve/http-range.c). Oracle: an
 * independent reading with POSIX regular expressions and strtoull() of the two forms it serves (FIRST-[LAST]
 * and -SUFFIX, case-insensitive unit, blanks around), whose answer must be the same, byte for byte. Input: 8
 * bytes of resource size, then the header's value. */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "http-range.h"

static regex_t span, suffix;
static int ready;

/* strtoull() of a digit string: false when it does not fit 64 bits. */
static int number(const char *s, size_t n, uint64_t *ret) {
        char buf[64];

        while (n > 1 && *s == '0') {    /* leading zeros change nothing */
                s++;
                n--;
        }
        if (n == 0 || n >= sizeof buf)
                return 0;               /* more than 20 digits: too large */
        memcpy(buf, s, n);
        buf[n] = 0;
        errno = 0;
        *ret = strtoull(buf, NULL, 10);
        return errno == 0;
}

static RangeAnswer reference(const char *v, uint64_t size, uint64_t *first, uint64_t *last) {
        regmatch_t m[3];
        uint64_t a, b;

        if (!v)
                return RANGE_WHOLE;
        if (regexec(&span, v, 3, m, 0) == 0) {
                if (!number(v + m[1].rm_so, (size_t) (m[1].rm_eo - m[1].rm_so), &a))
                        return RANGE_WHOLE;
                b = UINT64_MAX;
                if (m[2].rm_eo > m[2].rm_so && !number(v + m[2].rm_so, (size_t) (m[2].rm_eo - m[2].rm_so), &b))
                        return RANGE_WHOLE;
                if (b < a)
                        return RANGE_WHOLE;
                if (a >= size)
                        return RANGE_UNSATISFIABLE;
                *first = a;
                *last = b >= size ? size - 1 : b;
                return RANGE_PART;
        }
        if (regexec(&suffix, v, 2, m, 0) == 0) {
                if (!number(v + m[1].rm_so, (size_t) (m[1].rm_eo - m[1].rm_so), &a))
                        return RANGE_WHOLE;
                if (a == 0 || size == 0)
                        return RANGE_UNSATISFIABLE;
                *first = a >= size ? 0 : size - a;
                *last = size - 1;
                return RANGE_PART;
        }
        return RANGE_WHOLE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint64_t n = 0, f1 = 0, l1 = 0, f2 = 0, l2 = 0;
        RangeAnswer got, want;
        char *v;

        if (!ready) {
                if (regcomp(&span, "^[ \t]*[bB][yY][tT][eE][sS]=[ \t]*([0-9]+)-([0-9]*)[ \t]*$", REG_EXTENDED) != 0 ||
                    regcomp(&suffix, "^[ \t]*[bB][yY][tT][eE][sS]=[ \t]*-([0-9]+)[ \t]*$", REG_EXTENDED) != 0)
                        abort();
                ready = 1;
        }
        if (size < 8)
                return 0;
        memcpy(&n, data, 8);
        v = strndup((const char *) data + 8, size - 8);
        if (!v)
                return 0;
        got = http_range_parse(v, n, &f1, &l1);
        want = reference(v, n, &f2, &l2);
        if (got != want || (got == RANGE_PART && (f1 != f2 || l1 != l2 || f1 > l1 || l1 >= n)))
                abort();
        free(v);
        return 0;
}
