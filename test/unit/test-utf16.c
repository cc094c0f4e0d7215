/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for UTF-8 <-> UTF-16LE conversion. */
#include <errno.h>
#include <stdlib.h>

#include "memory-fundamental.h"
#include "tests.h"
#include "utf16.h"

static void roundtrip(const char *s, size_t want_size) {
        void *u = NULL;
        char *back = NULL;
        size_t size;

        ASSERT_OK(utf8_to_utf16le(s, strlen(s), &u, &size));
        ASSERT_EQ(size, want_size);
        ASSERT_OK(utf16le_to_utf8(u, size, &back));
        ASSERT_STREQ(back, s);
        ffree(u);
        ffree(back);
}

TEST(roundtrips) {
        roundtrip("", 2);
        roundtrip("http://10.0.2.2:8080/uki.efi", 2 * 29);
        roundtrip("ünï", 8);
        roundtrip("日本", 6);
        roundtrip("😀", 6); /* a surrogate pair */
}

TEST(exact_bytes) {
        void *u;
        size_t size;
        const uint8_t want[] = { 'A', 0, 0xfc, 0, 0x3d, 0xd8, 0x00, 0xde, 0, 0 };

        ASSERT_OK(utf8_to_utf16le("Aü😀", strlen("Aü😀"), &u, &size));
        ASSERT_EQ(size, sizeof want);
        ASSERT_TRUE(memcmp(u, want, size) == 0);
        ffree(u);
}

TEST(decode_stops_at_nul_and_odd_bytes) {
        const uint8_t data[] = { 'a', 0, 'b', 0, 0, 0, 'c', 0, 'd' };
        char *s;

        ASSERT_OK(utf16le_to_utf8(data, sizeof data, &s));
        ASSERT_STREQ(s, "ab");
        ffree(s);
        /* No terminating NUL: stops at the end; an odd byte is ignored. */
        ASSERT_OK(utf16le_to_utf8(data + 6, 3, &s));
        ASSERT_STREQ(s, "c");
        ffree(s);
}

TEST(lone_surrogates_become_replacement) {
        const uint8_t hi_alone[] = { 0x3d, 0xd8, 'x', 0 };
        const uint8_t lo_alone[] = { 0x00, 0xde };
        char *s;

        ASSERT_OK(utf16le_to_utf8(hi_alone, sizeof hi_alone, &s));
        ASSERT_STREQ(s, "\xef\xbf\xbdx");
        ffree(s);
        ASSERT_OK(utf16le_to_utf8(lo_alone, sizeof lo_alone, &s));
        ASSERT_STREQ(s, "\xef\xbf\xbd");
        ffree(s);
}

TEST(invalid_utf8_refused) {
        void *u;
        size_t size;
        const char *bad[] = {
                "\xff", "\xc0\xaf" /* overlong "/" */, "\xed\xa0\x80" /* surrogate */, "\xf4\x90\x80\x80" /* > U+10FFFF */,
                "\xe6\x97", /* truncated */
        };

        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                ASSERT_EQ(utf8_to_utf16le(bad[i], strlen(bad[i]), &u, &size), -EILSEQ);
                ASSERT_FALSE(utf8_is_valid(bad[i], strlen(bad[i])));
        }
        ASSERT_TRUE(utf8_is_valid("ok ü 日 😀", strlen("ok ü 日 😀")));
}
