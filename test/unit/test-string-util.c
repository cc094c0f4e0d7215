/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for string helpers, boolean parsing and environment reading. */
#include <errno.h>
#include <stdlib.h>

#include "env-util.h"
#include "string-fundamental.h"
#include "string-util.h"
#include "tests.h"

TEST(booleans) {
        const char *yes[] = { "1", "yes", "YES", "y", "true", "True", "t", "on", "ON" };
        const char *no[] = { "0", "no", "N", "false", "f", "off", "OFF" };
        const char *bad[] = { "", "2", "yess", "enable", " yes" };

        for (size_t i = 0; i < ELEMENTSOF(yes); i++)
                ASSERT_EQ(parse_boolean(yes[i]), 1);
        for (size_t i = 0; i < ELEMENTSOF(no); i++)
                ASSERT_EQ(parse_boolean(no[i]), 0);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                ASSERT_EQ(parse_boolean(bad[i]), -EINVAL);
        ASSERT_EQ(parse_boolean(NULL), -EINVAL);
}

TEST(getenv_bool) {
        unsetenv("URLBOOT_TEST_X");
        ASSERT_EQ(getenv_bool("URLBOOT_TEST_X"), -ENXIO);
        setenv("URLBOOT_TEST_X", "yes", 1);
        ASSERT_EQ(getenv_bool("URLBOOT_TEST_X"), 1);
        setenv("URLBOOT_TEST_X", "nah", 1);
        ASSERT_EQ(getenv_bool("URLBOOT_TEST_X"), -EINVAL);
}

TEST(affixes) {
        ASSERT_STREQ(startswith("rd.systemd.pull", "rd."), "systemd.pull");
        ASSERT_TRUE(startswith("rd", "rd.") == NULL);
        ASSERT_STREQ(endswith("image.raw.xz", ".xz"), ".xz");
        ASSERT_TRUE(endswith("xz", ".xz") == NULL);
        ASSERT_TRUE(string_has_cc("a\nb"));
        ASSERT_TRUE(string_has_cc("\x7f"));
        ASSERT_FALSE(string_has_cc("plain ü"));
}

TEST(strextend_and_strv) {
        _cleanup_free_ char *s = NULL;
        _cleanup_strv_free_ char **l = NULL;

        ASSERT_TRUE(strextend(&s, "a", "b", NULL));
        ASSERT_TRUE(strextend(&s, "", "c", NULL));
        ASSERT_STREQ(s, "abc");

        ASSERT_EQ(strv_length(l), 0);
        ASSERT_OK(strv_extend(&l, "x"));
        ASSERT_OK(strv_extend(&l, "y"));
        ASSERT_EQ(strv_length(l), 2);
        ASSERT_TRUE(strv_contains(l, "y"));
        ASSERT_FALSE(strv_contains(l, "z"));
        ASSERT_TRUE(l[2] == NULL);
}

TEST(fundamental_helpers) {
        char buf[21];

        ASSERT_EQ(fformat_uint(0, buf), 1);
        ASSERT_STREQ(buf, "0");
        ASSERT_EQ(fformat_uint(UINT64_MAX, buf), 20);
        ASSERT_STREQ(buf, "18446744073709551615");
        ASSERT_TRUE(fstrcaseeq("\\EFI\\BOOT\\BOOTX64.EFI", "\\efi\\boot\\bootx64.efi"));
        ASSERT_FALSE(fstrcaseeq("abc", "abcd"));
        ASSERT_TRUE(fendswith_no_case("x.CoNf", ".conf") != NULL);
        ASSERT_TRUE(fendswith_no_case("conf", ".conf") == NULL);
}

TEST(fparse_uint64) {
        uint64_t v = 7;

        ASSERT_OK(fparse_uint64("51466240", 8, UINT64_MAX, &v));
        ASSERT_EQ(v, 51466240);
        ASSERT_OK(fparse_uint64("18446744073709551615", 20, UINT64_MAX, &v));
        ASSERT_TRUE(v == UINT64_MAX);
        ASSERT_EQ(fparse_uint64("18446744073709551616", 20, UINT64_MAX, &v), -ERANGE);
        ASSERT_OK(fparse_uint64("2147483647", 10, 0x7fffffff, &v));
        ASSERT_EQ(fparse_uint64("2147483648", 10, 0x7fffffff, &v), -ERANGE);
        /* Only digits: no sign, blank or suffix; the length is the caller's. */
        ASSERT_EQ(fparse_uint64("", 0, UINT64_MAX, &v), -EINVAL);
        ASSERT_EQ(fparse_uint64("-1", 2, UINT64_MAX, &v), -EINVAL);
        ASSERT_EQ(fparse_uint64(" 1", 2, UINT64_MAX, &v), -EINVAL);
        ASSERT_EQ(fparse_uint64("12x", 3, UINT64_MAX, &v), -EINVAL);
        ASSERT_OK(fparse_uint64("12x", 2, UINT64_MAX, &v));
        ASSERT_EQ(v, 12);
}

TEST(distance_and_closest) {
        static const char *const verbs[] = { "status", "list", "measure", "rollout", "set-timeout", NULL };

        ASSERT_EQ(string_distance("", ""), 0);
        ASSERT_EQ(string_distance("statsu", "status"), 2);
        ASSERT_EQ(string_distance("kitten", "sitting"), 3);
        ASSERT_EQ(string_distance("list", ""), 4);
        ASSERT_STREQ(string_closest("stauts", verbs), "status");
        ASSERT_STREQ(string_closest("lst", verbs), "list");
        ASSERT_STREQ(string_closest("set-timout", verbs), "set-timeout");
        ASSERT_TRUE(string_closest("frobnicate", verbs) == NULL);
        ASSERT_TRUE(string_closest("x", verbs) == NULL);
}
