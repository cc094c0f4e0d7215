/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for fsnprintf(): fixed cases, then random formats compared with libc's snprintf(). */
#include <stdint.h>
#include <stdlib.h>

#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "tests.h"

#define CHECK_SAME(fmt, ...)                                                                        \
        do {                                                                                        \
                char _ours[256], _libc[256];                                                        \
                size_t _n = fsnprintf(_ours, sizeof _ours, fmt, __VA_ARGS__);                       \
                int _m = snprintf(_libc, sizeof _libc, fmt, __VA_ARGS__);                           \
                ASSERT_STREQ(_ours, _libc);                                                         \
                ASSERT_EQ(_n, _m);                                                                  \
        } while (0)

TEST(fixed_cases) {
        CHECK_SAME("%s: %u entries%s", "urlboot", 3u, "");
        CHECK_SAME("%d %i %d", 0, -1, INT32_MIN);
        CHECK_SAME("%lld %llu", (long long) INT64_MIN, (unsigned long long) UINT64_MAX);
        CHECK_SAME("%zu %zx %jd %td", (size_t) 12345, (size_t) 0xabc, (intmax_t) -7, (ptrdiff_t) 9);
        CHECK_SAME("%hhd %hhu %hd %hu", 200, 300, 70000, 70000);
        CHECK_SAME("[%5s][%-5s][%.2s][%*s][%-*s][%.*s]", "ab", "ab", "abc", 4, "x", 4, "x", 1, "yz");
        CHECK_SAME("[%05d][%-5d][%5.3d][%.0d][%8.3x][%X]", -42, 42, 7, 0, 0xbeefu, 0xbeefu);
        CHECK_SAME("[%c][%3c][%-3c] 100%%", 'a', 'b', 'c');
        CHECK_SAME("[%*d] [%.*d]", -6, 12, -3, 12);
        CHECK_SAME("%s", "UTF-8 stays bytes: \xc3\xa9");
}

/* Formats the compiler rightly warns about: what happens when one slips through anyway. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#pragma GCC diagnostic ignored "-Wformat-overflow"
TEST(null_pointer_and_unknown_conversions) {
        char buf[64];

        ASSERT_EQ(fsnprintf(buf, sizeof buf, "%s", (const char *) NULL), 6);
        ASSERT_STREQ(buf, "(null)");
        /* a conversion we do not know is printed as it stands, and reads no argument */
        ASSERT_EQ(fsnprintf(buf, sizeof buf, "%f|%d|%", 5), 6);
        ASSERT_STREQ(buf, "%f|5|%");
        ASSERT_EQ(fsnprintf(buf, sizeof buf, "%p", (void *) 0x1234), 6);
        ASSERT_STREQ(buf, "0x1234");
}
#pragma GCC diagnostic pop

TEST(cut_and_counted) {
        char buf[8];
        char *s;

        /* the text is cut, NUL-terminated, and the full length returned (as snprintf does) */
        ASSERT_EQ(fsnprintf(buf, sizeof buf, "%s-%u", "abcdef", 12345u), 12);
        ASSERT_STREQ(buf, "abcdef-");
        ASSERT_EQ(fsnprintf(buf, 1, "xyz"), 3);
        ASSERT_STREQ(buf, "");
        ASSERT_EQ(fsnprintf(NULL, 0, "%d", 100), 3);
        s = fasprintf("%s %u.%02u", "UEFI", 2u, 7u);
        ASSERT_STREQ(s, "UEFI 2.07");
        ffree(s);
}

/* A random conversion with random flags, width and precision, its argument and libc's text. */
static void random_case(unsigned seed) {
        static const char *lengths[] = { "", "hh", "h", "l", "ll", "z", "j" };
        static const char convs[] = "diuxXcs";
        char fmt[64], ours[512], libc[512];
        const char *len;
        char conv = convs[rand() % (sizeof convs - 1)];
        int k = 0, m;
        size_t n;
        uint64_t v = ((uint64_t) rand() << 33) ^ ((uint64_t) rand() << 7) ^ (uint64_t) rand();
        bool zero = rand() % 3 == 0, left = rand() % 3 == 0;

        /* '0' with %c or %s is undefined in C: leave it to the integer conversions */
        if (conv == 'c' || conv == 's')
                zero = false;
        len = conv == 'c' || conv == 's' ? "" : lengths[rand() % ELEMENTSOF(lengths)];
        fmt[k++] = '<';
        fmt[k++] = '%';
        if (left)
                fmt[k++] = '-';
        if (zero)
                fmt[k++] = '0';
        if (rand() % 2)
                k += snprintf(fmt + k, sizeof fmt - k, "%d", rand() % 30);
        if (rand() % 3 == 0 && conv != 'c')
                k += snprintf(fmt + k, sizeof fmt - k, ".%d", rand() % 25);
        k += snprintf(fmt + k, sizeof fmt - k, "%s%c>", len, conv);

        if (rand() % 4 == 0)
                v >>= rand() % 64;   /* small numbers too */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        if (conv == 's') {
                const char *words[] = { "", "a", "urlboot", "http://10.0.2.2:8080/uki.efi" };
                const char *w = words[v % 4];
                n = fsnprintf(ours, sizeof ours, fmt, w);
                m = snprintf(libc, sizeof libc, fmt, w);
        } else if (conv == 'c') {
                n = fsnprintf(ours, sizeof ours, fmt, (int) (' ' + v % 90));
                m = snprintf(libc, sizeof libc, fmt, (int) (' ' + v % 90));
        } else if (!*len || len[0] == 'h') {
                n = fsnprintf(ours, sizeof ours, fmt, (int) v);
                m = snprintf(libc, sizeof libc, fmt, (int) v);
        } else {
                /* l, ll, z and j are all 64 bits on the hosts we build on */
                n = fsnprintf(ours, sizeof ours, fmt, (long long) v);
                m = snprintf(libc, sizeof libc, fmt, (long long) v);
        }
#pragma GCC diagnostic pop
        if (strcmp(ours, libc) != 0 || (int) n != m)
                test_fail(__FILE__, __LINE__, "seed %u: format \"%s\": ours \"%s\" (%zu), libc \"%s\" (%d)", seed, fmt,
                          ours, n, libc, m);
}

TEST(random_formats_against_libc) {
        for (unsigned seed = 1; seed <= 20000; seed++) {
                srand(seed);
                random_case(seed);
        }
}
