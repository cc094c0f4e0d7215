/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the URL helpers: every row of test/data/url-cases.tsv. */
#include <errno.h>
#include <stdlib.h>

#include "memory-fundamental.h"
#include "tests.h"
#include "url.h"

static const char *unempty(const char *s) {
        return strcmp(s, "(empty)") == 0 ? "" : s;
}

static void expect_result(int r, char *got, const char *want, int lineno) {
        char buf[32];

        if (r < 0) {
                snprintf(buf, sizeof buf, "-%s", r == -EINVAL ? "EINVAL" : r == -EADDRNOTAVAIL ? "EADDRNOTAVAIL" : "E?");
                if (strcmp(buf, want) != 0)
                        test_fail(__FILE__, __LINE__, "line %d: got %s, want \"%s\"", lineno, buf, want);
                return;
        }
        if (strcmp(got, want) != 0)
                test_fail(__FILE__, __LINE__, "line %d: got \"%s\", want \"%s\"", lineno, got, want);
        ffree(got);
}

static void case_line(char *line, int lineno, void *userdata) {
        char *f[5], *got = NULL;
        int n = test_split_fields(line, f, 5), *count = userdata;

        (*count)++;
        if (strcmp(f[0], "last") == 0 && n == 3) {
                int r = url_last_component(unempty(f[1]), &got);
                expect_result(r, got, f[2], lineno);
        } else if (strcmp(f[0], "suffix") == 0 && n == 5) {
                int r = url_change_suffix(unempty(f[1]), (unsigned) atoi(f[2]), f[3], &got);
                expect_result(r, got, f[4], lineno);
        } else if (strcmp(f[0], "http") == 0 && n == 3) {
                if (url_is_http(unempty(f[1])) != (strcmp(f[2], "yes") == 0))
                        test_fail(__FILE__, __LINE__, "line %d: url_is_http(\"%s\") wrong", lineno, f[1]);
        } else if (strcmp(f[0], "file") == 0 && n == 3) {
                if (url_is_file(unempty(f[1])) != (strcmp(f[2], "yes") == 0))
                        test_fail(__FILE__, __LINE__, "line %d: url_is_file(\"%s\") wrong", lineno, f[1]);
        } else
                test_fail(__FILE__, __LINE__, "line %d: malformed case", lineno);
}

TEST(cases) {
        int n = 0;

        test_foreach_line("url-cases.tsv", case_line, &n);
        test_note("%d URL cases", n);
        ASSERT_TRUE(n >= 40);
}

TEST(wrappers) {
        char *s;

        ASSERT_OK(url_change_last_component("http://h/d/boot.efi", "uki.efi", &s));
        ASSERT_STREQ(s, "http://h/d/uki.efi");
        ffree(s);
}

TEST(host_header) {
        static const struct { const char *url, *host; } cases[] = {
                { "http://10.0.2.2:8080/dir/uki.efi", "10.0.2.2:8080" },
                { "https://boot.example.com/uki.efi?x=1", "boot.example.com" },
                { "http://user:secret@h:81/x", "h:81" },
                { "http://[fd00::1]:8080/x", "[fd00::1]:8080" },
                { "http://h", "h" },
        };
        char *s;

        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                ASSERT_OK(url_host_header(cases[i].url, &s));
                ASSERT_STREQ(s, cases[i].host);
                free(s);
        }
        ASSERT_EQ(url_host_header("no-scheme", &s), -EINVAL);
        ASSERT_EQ(url_host_header("http://user@/x", &s), -EINVAL);
        /* Nothing that would split the request line or the header. */
        ASSERT_EQ(url_host_header("http://h\r\nX-Injected: 1/x", &s), -EINVAL);
        ASSERT_EQ(url_host_header("http://h/a b", &s), -EINVAL);
        ASSERT_EQ(url_host_header("http://h/a\tb", &s), -EINVAL);
        ASSERT_EQ(url_host_header("http://h/\x7f", &s), -EINVAL);
        ASSERT_TRUE(url_is_http("http://h\r\nX-Injected: 1/x"));     /* as systemd's http_url_is_valid() */
        ASSERT_FALSE(url_is_printable("http://h\r\nX-Injected: 1/x"));
        ASSERT_FALSE(url_is_printable("http://h/\x80"));
        ASSERT_TRUE(url_is_printable("http://user:pw@[fd00::1]:8080/a%20b?x=1#y"));
}
