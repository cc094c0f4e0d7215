/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the Discoverable Partitions root choice (test/data/gpt-root-cases.tsv). */
#include <stdlib.h>

#include "gpt-types.h"
#include "tests.h"

static const char *type_of(const char *name) {
        if (strcmp(name, "root") == 0)
                return GPT_ROOT_X86_64;
        if (strcmp(name, "arm64") == 0)
                return GPT_ROOT_ARM64;
        if (strcmp(name, "esp") == 0)
                return GPT_ESP;
        return "0fc63daf-8483-4772-8e79-3d69d8477de4"; /* generic Linux data */
}

static void case_line(char *line, int lineno, void *userdata) {
        char *f[16];
        GptPartition p[15];
        int n = test_split_fields(line, f, 16), want = atoi(f[0]), got;

        for (int i = 1; i < n; i++) {
                char *label = strchr(f[i], ','), *flags;
                *label++ = 0;
                flags = strchr(label, ',');
                *flags++ = 0;
                p[i - 1] = (GptPartition) {
                        .type = type_of(f[i]),
                        .label = strcmp(label, "-") == 0 ? NULL : label,
                        .flags = strtoull(flags, NULL, 16),
                        .uuid = "00000000-0000-0000-0000-000000000000",
                };
        }
        got = gpt_pick_root(p, (size_t) (n - 1), GPT_ROOT_X86_64);
        if (got != want)
                test_fail(__FILE__, __LINE__, "line %d: chose %d, expected %d", lineno, got, want);
        (*(int *) userdata)++;
}

TEST(root_choice) {
        int n = 0;

        test_foreach_line("gpt-root-cases.tsv", case_line, &n);
        ASSERT_TRUE(n >= 10);
}

TEST(native_and_uuid_compare) {
#if defined(__x86_64__)
        ASSERT_STREQ(gpt_root_type_native(), GPT_ROOT_X86_64);
#endif
        ASSERT_TRUE(gpt_uuid_equal("4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709", GPT_ROOT_X86_64));
        ASSERT_FALSE(gpt_uuid_equal(GPT_ROOT_ARM64, GPT_ROOT_X86_64));
        ASSERT_FALSE(gpt_uuid_equal(NULL, GPT_ROOT_X86_64));
        ASSERT_FALSE(gpt_uuid_equal("4f68bce3", GPT_ROOT_X86_64));
        ASSERT_EQ(gpt_pick_root(NULL, 0, GPT_ROOT_X86_64), -1);
        ASSERT_EQ(gpt_pick_root(NULL, 0, NULL), -1);
}
