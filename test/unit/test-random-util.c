/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the never-blocking random numbers of names and identifiers. */
#include <stdlib.h>

#include "fileio.h"
#include "random-util.h"
#include "tests.h"

static int cmp_u64(const void *a, const void *b) {
        uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

        return x < y ? -1 : x > y;
}

TEST(values_differ_and_cover_every_bit) {
        enum { N = 4096 };
        static uint64_t v[N];
        uint64_t all_or = 0, all_and = UINT64_MAX;

        for (size_t i = 0; i < N; i++) {
                v[i] = random_u64_insecure();
                all_or |= v[i];
                all_and &= v[i];
        }
        /* A constant, a counter or a truncated value fails one of these. */
        ASSERT_EQ(all_or, UINT64_MAX);
        ASSERT_EQ(all_and, 0);
        qsort(v, N, sizeof v[0], cmp_u64);
        for (size_t i = 1; i < N; i++)
                ASSERT_TRUE(v[i] != v[i - 1]);
}

TEST(temporary_names) {
        char *a, *b;

        ASSERT_OK(tmp_name_random("image.raw", &a));
        ASSERT_OK(tmp_name_random("image.raw", &b));
        ASSERT_EQ(strlen(a), strlen(".#image.raw.") + TMP_NAME_RANDOM_DIGITS);
        ASSERT_TRUE(strncmp(a, ".#image.raw.", 12) == 0);
        ASSERT_EQ(strspn(a + 12, "0123456789abcdef"), TMP_NAME_RANDOM_DIGITS);
        ASSERT_TRUE(strcmp(a, b) != 0);
        free(a);
        free(b);
}
