/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for image names: suffix stripping (test/data/image-name-cases.tsv) and validity. */
#include <errno.h>
#include <stdlib.h>

#include "image-name.h"
#include "tests.h"

static void case_line(char *line, int lineno, void *userdata) {
        char *f[3], *got = NULL;
        const char *want;
        int r;

        if (test_split_fields(line, f, 3) != 3)
                test_fail(__FILE__, __LINE__, "line %d: need three fields", lineno);
        want = strcmp(f[2], "(empty)") == 0 ? "" : f[2];

        r = strcmp(f[0], "tar") == 0 ? tar_strip_suffixes(f[1], &got) : raw_strip_suffixes(f[1], &got);
        if (r == -EINVAL && strcmp(want, "-EINVAL") == 0)
                return;
        if (r < 0 || strcmp(got, want) != 0)
                test_fail(__FILE__, __LINE__, "line %d: %s(\"%s\") = %d \"%s\", want \"%s\"", lineno, f[0], f[1], r,
                          got ?: "", want);
        free(got);
        (*(int *) userdata)++;
}

TEST(strip_suffixes) {
        int n = 0;

        test_foreach_line("image-name-cases.tsv", case_line, &n);
        ASSERT_TRUE(n >= 20);
}

TEST(validity) {
        ASSERT_TRUE(image_name_is_valid("rootdisk"));
        ASSERT_TRUE(image_name_is_valid("ParticleOS_x86-64"));
        ASSERT_TRUE(image_name_is_valid("ünïcode"));
        ASSERT_FALSE(image_name_is_valid(""));
        ASSERT_FALSE(image_name_is_valid("."));
        ASSERT_FALSE(image_name_is_valid(".."));
        ASSERT_FALSE(image_name_is_valid("a/b"));
        ASSERT_FALSE(image_name_is_valid(".#tmp"));
        /* An option on urlboot-pull's command line (docs/security.md L1). */
        ASSERT_FALSE(image_name_is_valid("--verify=no"));
        ASSERT_FALSE(image_name_is_valid("-x"));
        ASSERT_TRUE(image_name_is_valid("x-"));
        ASSERT_FALSE(image_name_is_valid("tab\there"));
        ASSERT_FALSE(image_name_is_valid("bad\xff"));
        char longname[300];
        memset(longname, 'x', sizeof longname - 1);
        longname[sizeof longname - 1] = 0;
        ASSERT_FALSE(image_name_is_valid(longname));
}

TEST(from_url) {
        char *n;

        ASSERT_OK(image_name_from_url("http://10.0.2.2:8080/image.raw.zst", false, &n));
        ASSERT_STREQ(n, "image");
        free(n);
        ASSERT_OK(image_name_from_url("https://h/d/root.tar.xz?sig=1", true, &n));
        ASSERT_STREQ(n, "root");
        free(n);
        /* A URL whose name strips to nothing gives no name (v258 forgets to check this). */
        ASSERT_EQ(image_name_from_url("http://h/.raw", false, &n), -EINVAL);
        ASSERT_EQ(image_name_from_url("http://h/", false, &n), -EADDRNOTAVAIL);
        /* Nor one that would be an option of urlboot-pull. */
        ASSERT_EQ(image_name_from_url("http://h/--force.raw", false, &n), -EINVAL);
}
