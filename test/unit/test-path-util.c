/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for path helpers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A host copy of a FAT ESP: EFI/Linux written in another case than the EFI path says. */
TEST(join_caseless) {
        char dir[] = "/tmp/test-path-util-XXXXXX", sub[256], *p;

        ASSERT_TRUE(mkdtemp(dir) != NULL);
        snprintf(sub, sizeof sub, "%s/efi", dir);
        ASSERT_OK(mkdir(sub, 0755));
        snprintf(sub, sizeof sub, "%s/efi/LINUX", dir);
        ASSERT_OK(mkdir(sub, 0755));
        snprintf(sub, sizeof sub, "%s/efi/LINUX/uki.efi.extra.d", dir);
        ASSERT_OK(mkdir(sub, 0755));

        ASSERT_OK(path_join_caseless(dir, "\\EFI\\Linux\\UKI.efi.extra.d", &p));
        ASSERT_STREQ(p, sub);
        free(p);
        ASSERT_OK(path_join_caseless(dir, "/efi/LINUX/uki.efi.extra.d/", &p));
        ASSERT_STREQ(p, sub);
        free(p);
        ASSERT_EQ(path_join_caseless(dir, "\\EFI\\Linux\\other.efi.extra.d", &p), -ENOENT);

        ASSERT_OK(rmdir(sub));
        snprintf(sub, sizeof sub, "%s/efi/LINUX", dir);
        ASSERT_OK(rmdir(sub));
        snprintf(sub, sizeof sub, "%s/efi", dir);
        ASSERT_OK(rmdir(sub));
        ASSERT_OK(rmdir(dir));
}
