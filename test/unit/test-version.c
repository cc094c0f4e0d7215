/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for version_compare(): the ladder and the pair table in test/data. */
#include <stdlib.h>

#include "tests.h"
#include "version.h"

static const char *unempty(const char *s) {
        return strcmp(s, "(empty)") == 0 ? "" : s;
}

static int sign(int x) {
        return (x > 0) - (x < 0);
}

static void check_pair(const char *a, int expected, const char *b, int lineno) {
        int r = sign(version_compare(a, b)), s = sign(version_compare(b, a));

        if (r != expected || s != -expected)
                test_fail(__FILE__, __LINE__, "line %d: \"%s\" vs \"%s\": got %d/%d, want %d", lineno, a, b, r, s,
                          expected);
}

static void pair_line(char *line, int lineno, void *userdata) {
        char *f[3];
        int *n = userdata, expected;

        if (test_split_fields(line, f, 3) != 3)
                test_fail(__FILE__, __LINE__, "line %d: need three fields", lineno);
        expected = strcmp(f[1], "<") == 0 ? -1 : strcmp(f[1], ">") == 0 ? 1 : 0;
        check_pair(unempty(f[0]), expected, unempty(f[2]), lineno);
        (*n)++;
}

TEST(pairs) {
        int n = 0;

        test_foreach_line("version-pairs.tsv", pair_line, &n);
        test_note("%d pairs", n);
        ASSERT_TRUE(n >= 40);
}

struct ladder {
        char *items[64];
        int lines[64];
        int n;
};

static void ladder_line(char *line, int lineno, void *userdata) {
        struct ladder *l = userdata;

        l->items[l->n] = strdup(unempty(line));
        l->lines[l->n++] = lineno;
}

TEST(ladder) {
        struct ladder l = {};

        test_foreach_line("version-ladder.txt", ladder_line, &l);
        ASSERT_TRUE(l.n > 20);
        for (int i = 0; i < l.n; i++) {
                check_pair(l.items[i], 0, l.items[i], l.lines[i]);
                for (int j = i + 1; j < l.n; j++)
                        check_pair(l.items[i], -1, l.items[j], l.lines[j]);
        }
        for (int i = 0; i < l.n; i++)
                free(l.items[i]);
}

TEST(null_is_empty) {
        ASSERT_EQ(version_compare(NULL, NULL), 0);
        ASSERT_EQ(version_compare(NULL, ""), 0);
        ASSERT_TRUE(version_compare(NULL, "1") < 0);
        ASSERT_TRUE(version_compare("~", NULL) < 0);
}

TEST(long_numbers) {
        /* Numeric runs longer than any integer type still compare by value. */
        ASSERT_TRUE(version_compare("123456789012345678901234567890", "123456789012345678901234567889") > 0);
        ASSERT_TRUE(version_compare("99999999999999999999", "100000000000000000000") < 0);
        ASSERT_EQ(version_compare("000000000000000000000001", "1"), 0);
}
