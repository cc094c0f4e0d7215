/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for path helpers. */
#include <errno.h>
#include <stdlib.h>

#include "path-util.h"
#include "tests.h"

static void simplify(const char *in, const char *want) {
        char *p = strdup(in);

        ASSERT_STREQ(path_simplify(p), want);
        free(p);
}

TEST(simplify) {
        simplify("/", "/");
        simplify("//", "/");
        simplify("/a//b/", "/a/b");
        simplify("/./a/./b/.", "/a/b");
        simplify("a/b//c/", "a/b/c");
        simplify("./", ".");
        simplify("./a", "a");
        simplify("/a/../b", "/a/../b");
        simplify("", "");
}

TEST(validity) {
        char longc[300];

        ASSERT_TRUE(path_is_valid("/a"));
        ASSERT_TRUE(path_is_valid("a"));
        ASSERT_FALSE(path_is_valid(""));
        ASSERT_FALSE(path_is_valid(NULL));
        memset(longc, 'x', 299);
        longc[299] = 0;
        ASSERT_FALSE(path_is_valid(longc));

        ASSERT_TRUE(path_is_normalized("/a/b"));
        ASSERT_TRUE(path_is_normalized("a/b/"));
        ASSERT_TRUE(path_is_normalized("/a/..b/c."));
        ASSERT_FALSE(path_is_normalized("/a/../b"));
        ASSERT_FALSE(path_is_normalized("/a/./b"));
        ASSERT_FALSE(path_is_normalized("/a//b"));
        ASSERT_FALSE(path_is_normalized(".."));
        ASSERT_FALSE(path_is_normalized("a/."));

        ASSERT_TRUE(filename_is_valid("a.raw"));
        ASSERT_FALSE(filename_is_valid("a/b"));
        ASSERT_FALSE(filename_is_valid(".."));
        ASSERT_FALSE(filename_is_valid(""));
        ASSERT_TRUE(path_is_absolute("/x"));
        ASSERT_FALSE(path_is_absolute("x"));
        ASSERT_FALSE(path_is_absolute(NULL));
}

TEST(join_and_extract) {
        char *p;

        p = path_join("/run/machines/", "/image.raw");
        ASSERT_STREQ(p, "/run/machines/image.raw");
        free(p);
        p = path_join("a", "b");
        ASSERT_STREQ(p, "a/b");
        free(p);

        ASSERT_OK(path_extract_filename("/run/machines/image.raw", &p));
        ASSERT_STREQ(p, "image.raw");
        free(p);
        ASSERT_OK(path_extract_filename("/run/machines/root/", &p));
        ASSERT_STREQ(p, "root");
        free(p);
        ASSERT_OK(path_extract_filename("///", &p));
        ASSERT_STREQ(p, "/");
        free(p);
        ASSERT_OK(path_extract_directory("/run/machines/image.raw", &p));
        ASSERT_STREQ(p, "/run/machines");
        free(p);
        ASSERT_OK(path_extract_directory("/image.raw", &p));
        ASSERT_STREQ(p, "/");
        free(p);
        ASSERT_OK(path_extract_directory("image.raw", &p));
        ASSERT_STREQ(p, ".");
        free(p);
        ASSERT_EQ(path_extract_filename("", &p), -EINVAL);
}
