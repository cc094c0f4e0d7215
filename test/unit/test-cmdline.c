/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the kernel command line: every row of test/data/cmdline-cases.tsv. */
#include <errno.h>
#include <stdlib.h>

#include "proc-cmdline.h"
#include "string-util.h"
#include "tests.h"

static const char *unempty(const char *s) {
        return strcmp(s, "(empty)") == 0 ? "" : s;
}

static ProcCmdlineFlags parse_flags(const char *s) {
        ProcCmdlineFlags f = 0;

        if (strstr(s, "strip"))
                f |= PROC_CMDLINE_STRIP_RD_PREFIX;
        if (strstr(s, "strict"))
                f |= PROC_CMDLINE_RD_STRICT;
        return f;
}

/* Joins what the callback sees as "key[=value]" fields separated by tabs. */
static int collect(const char *key, const char *value, void *userdata) {
        char **out = userdata;

        if (*out && !strextend(out, "\t", NULL))
                return -ENOMEM;
        if (!strextend(out, key, value ? "=" : "", value ?: "", NULL))
                return -ENOMEM;
        return 0;
}

static char *join_fields(char **f, int n) {
        char *j = NULL;

        for (int i = 0; i < n; i++) {
                if (strcmp(f[i], "(none)") == 0)
                        continue;
                if (j)
                        strextend(&j, "\t", NULL);
                strextend(&j, unempty(f[i]), NULL);
        }
        return j;
}

static void check_split(char **f, int n, int lineno) {
        _cleanup_strv_free_ char **words = NULL;
        _cleanup_free_ char *want = join_fields(f + 2, n - 2), *got = NULL;

        ASSERT_OK(cmdline_split(unempty(f[1]), &words));
        STRV_FOREACH(w, words) {
                if (got)
                        strextend(&got, "\t", NULL);
                else
                        got = strdup("");
                strextend(&got, *w, NULL);
        }
        if (!streq_ptr(got, want))
                test_fail(__FILE__, __LINE__, "line %d: split \"%s\" gave \"%s\", want \"%s\"", lineno, f[1],
                          got ?: "(none)", want ?: "(none)");
}

static void check_parse(char **f, int n, int lineno) {
        _cleanup_free_ char *want = join_fields(f + 4, n - 4), *got = NULL;

        setenv("SYSTEMD_IN_INITRD", streq(f[1], "initrd") ? "1" : "0", 1);
        ASSERT_OK(proc_cmdline_parse_given(unempty(f[3]), collect, &got, parse_flags(f[2])));
        if (!streq_ptr(got, want))
                test_fail(__FILE__, __LINE__, "line %d: parse gave \"%s\", want \"%s\"", lineno, got ?: "(none)",
                          want ?: "(none)");
}

static void check_get(char **f, int n, int lineno) {
        _cleanup_free_ char *value = NULL;
        const char *got;
        int r;

        if (n != 6)
                test_fail(__FILE__, __LINE__, "line %d: get needs six fields", lineno);
        setenv("SYSTEMD_IN_INITRD", streq(f[1], "initrd") ? "1" : "0", 1);
        setenv("SYSTEMD_PROC_CMDLINE", unempty(f[3]), 1);
        r = proc_cmdline_get_key(f[4], parse_flags(f[2]), &value);
        ASSERT_OK(r);
        got = r == 0 ? "(absent)" : !value ? "(novalue)" : *value ? value : "(empty)";
        if (!streq(got, f[5]))
                test_fail(__FILE__, __LINE__, "line %d: get %s gave \"%s\", want \"%s\"", lineno, f[4], got, f[5]);
}

static void case_line(char *line, int lineno, void *userdata) {
        char *f[32];
        int n = test_split_fields(line, f, 32);

        (*(int *) userdata)++;
        if (streq(f[0], "split") && n >= 3)
                check_split(f, n, lineno);
        else if (streq(f[0], "parse") && n >= 5)
                check_parse(f, n, lineno);
        else if (streq(f[0], "get"))
                check_get(f, n, lineno);
        else
                test_fail(__FILE__, __LINE__, "line %d: malformed case", lineno);
}

TEST(cases) {
        int n = 0;

        test_foreach_line("cmdline-cases.tsv", case_line, &n);
        test_note("%d command line cases", n);
        ASSERT_TRUE(n >= 40);
}

TEST(whitespace_kinds) {
        _cleanup_strv_free_ char **w = NULL;

        ASSERT_OK(cmdline_split("a\tb\nc\r\n d", &w));
        ASSERT_EQ(strv_length(w), 4);
        ASSERT_STREQ(w[3], "d");
}

TEST(key_compare) {
        ASSERT_TRUE(proc_cmdline_key_streq("systemd.pull", "systemd.pull"));
        ASSERT_TRUE(proc_cmdline_key_streq("a-b_c", "a_b-c"));
        ASSERT_FALSE(proc_cmdline_key_streq("a.b", "a-b"));
        ASSERT_FALSE(proc_cmdline_key_streq("ab", "abc"));
        ASSERT_STREQ(proc_cmdline_key_startswith("systemd.pull_success-action", "systemd.pull-success_"), "action");
        ASSERT_TRUE(proc_cmdline_key_startswith("abc", "abd") == NULL);
        ASSERT_TRUE(proc_cmdline_key_startswith("ab", "abc") == NULL);
}

TEST(proc_cmdline_file) {
        _cleanup_free_ char *s = NULL;

        /* Without the override the real /proc/cmdline is read, and its newline dropped. */
        unsetenv("SYSTEMD_PROC_CMDLINE");
        ASSERT_OK(proc_cmdline(&s));
        ASSERT_TRUE(!strchr(s, '\n'));

        free(s);
        setenv("SYSTEMD_PROC_CMDLINE", "x=1\n", 1);
        ASSERT_OK(proc_cmdline(&s));
        ASSERT_STREQ(s, "x=1");
}
