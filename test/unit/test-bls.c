/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for Type #1 entries (test/data/bls-cases.tsv), their order and glob matching. */
#include <stdio.h>
#include <stdlib.h>

#include "bls.h"
#include "tests.h"

static const char *kind_name(BlsKind k) {
        static const char *const n[] = { "none", "linux", "efi", "uki", "uki-url" };
        return n[k];
}

static void check_field(const BlsEntry *e, const char *kv, int lineno) {
        char key[32], want[256], got[256];
        const char *eq = strchr(kv, '=');

        snprintf(key, sizeof key, "%.*s", (int) (eq - kv), kv);
        snprintf(want, sizeof want, "%s", eq + 1);
        if (!strcmp(key, "id")) snprintf(got, sizeof got, "%s", e->id);
        else if (!strcmp(key, "title")) snprintf(got, sizeof got, "%s", e->title ?: "");
        else if (!strcmp(key, "version")) snprintf(got, sizeof got, "%s", e->version ?: "");
        else if (!strcmp(key, "kind")) snprintf(got, sizeof got, "%s", kind_name(e->kind));
        else if (!strcmp(key, "path")) snprintf(got, sizeof got, "%s", e->path);
        else if (!strcmp(key, "options")) snprintf(got, sizeof got, "%s", e->options ?: "");
        else if (!strcmp(key, "initrds")) snprintf(got, sizeof got, "%u", e->n_initrds);
        else if (!strcmp(key, "left")) snprintf(got, sizeof got, "%d", e->tries_left);
        else if (!strcmp(key, "done")) snprintf(got, sizeof got, "%d", e->tries_done);
        else if (!strcmp(key, "sort-key")) snprintf(got, sizeof got, "%s", e->sort_key ?: "");
        else if (!strcmp(key, "machine-id")) snprintf(got, sizeof got, "%s", e->machine_id ?: "");
        else if (!strcmp(key, "profile")) snprintf(got, sizeof got, "%s", e->profile ?: "");
        else if (!strcmp(key, "architecture")) snprintf(got, sizeof got, "%s", e->architecture ?: "");
        else
                test_fail(__FILE__, __LINE__, "line %d: unknown field %s", lineno, key);
        if (strcmp(got, want) != 0)
                test_fail(__FILE__, __LINE__, "line %d: %s is \"%s\", expected \"%s\"", lineno, key, got, want);
}

static void case_line(char *line, int lineno, void *userdata) {
        char *f[3], *body;
        BlsEntry *e = NULL;
        int r;

        if (test_split_fields(line, f, 3) != 3)
                test_fail(__FILE__, __LINE__, "line %d: three fields needed", lineno);
        body = test_unescape(f[1]);
        r = bls_entry_parse(f[0], body, strlen(body), &e);
        free(body);
        if (!strcmp(f[2], "invalid")) {
                if (r >= 0)
                        test_fail(__FILE__, __LINE__, "line %d: accepted an invalid entry", lineno);
                return;
        }
        if (r < 0)
                test_fail(__FILE__, __LINE__, "line %d: refused: %d", lineno, r);
        for (char *kv = strtok(f[2], "|"); kv; kv = strtok(NULL, "|")) {
                while (*kv == ' ')
                        kv++;
                size_t n = strlen(kv);
                while (n > 0 && kv[n - 1] == ' ')
                        kv[--n] = 0;
                check_field(e, kv, lineno);
        }
        bls_entry_free(e);
        (*(int *) userdata)++;
}

TEST(cases) {
        int n = 0;

        test_foreach_line("bls-cases.tsv", case_line, &n);
        ASSERT_TRUE(n >= 10);
}

static BlsEntry *entry(const char *file, const char *body) {
        BlsEntry *e;

        ASSERT_OK(bls_entry_parse(file, body, strlen(body), &e));
        return e;
}

TEST(order) {
        BlsEntry *keyed_old = entry("a.conf", "sort-key debian\nversion 6.1.0-9\nlinux /v");
        BlsEntry *keyed_new = entry("b.conf", "sort-key debian\nversion 6.1.0-13\nlinux /v");
        BlsEntry *keyed_other = entry("c.conf", "sort-key arch\nlinux /v");
        BlsEntry *plain_9 = entry("linux-5.9.conf", "linux /v");
        BlsEntry *plain_10 = entry("linux-5.10.conf", "linux /v");

        ASSERT_TRUE(bls_entry_compare(keyed_other, keyed_new) < 0); /* sort-key order */
        ASSERT_TRUE(bls_entry_compare(keyed_new, keyed_old) < 0);   /* newest version first */
        ASSERT_TRUE(bls_entry_compare(keyed_old, plain_10) < 0);    /* keyed before unkeyed */
        ASSERT_TRUE(bls_entry_compare(plain_10, plain_9) < 0);      /* newest ID first */
        ASSERT_EQ(bls_entry_compare(plain_9, plain_9), 0);
        bls_entry_free(keyed_old);
        bls_entry_free(keyed_new);
        bls_entry_free(keyed_other);
        bls_entry_free(plain_9);
        bls_entry_free(plain_10);
}

TEST(glob) {
        ASSERT_TRUE(bls_glob_match("*", "anything"));
        ASSERT_TRUE(bls_glob_match("debian-*", "debian-6.1"));
        ASSERT_TRUE(bls_glob_match("DEBIAN-*", "debian-6.1"));
        ASSERT_TRUE(bls_glob_match("linux-?.1", "linux-6.1"));
        ASSERT_TRUE(bls_glob_match("linux-[5-6].*", "linux-6.1"));
        ASSERT_FALSE(bls_glob_match("linux-[7-9].*", "linux-6.1"));
        ASSERT_FALSE(bls_glob_match("debian", "debian-6.1"));
        ASSERT_TRUE(bls_glob_match("", ""));
        ASSERT_FALSE(bls_glob_match("a[b", "ab"));
        ASSERT_FALSE(bls_glob_match("*a[b", "xab"));
        ASSERT_TRUE(bls_glob_match("*-[0-9]*.conf", "debian-6.1.0-13-amd64.conf"));
        ASSERT_TRUE(bls_glob_match("**a*?", "ba1"));
        ASSERT_FALSE(bls_glob_match("*a*?", "ba"));
        ASSERT_FALSE(bls_glob_match("*[]*", "x"));      /* an empty class matches nothing */
}

/* Many stars that cannot match: a matcher trying every split for every star takes years here (the
 * fuzzer found a 396-byte loader.conf default that took 35 s); this one is linear per star. */
TEST(glob_many_stars) {
        char pattern[2 * 40 + 2], s[200];

        for (int i = 0; i < 40; i++)
                pattern[2 * i] = 'a', pattern[2 * i + 1] = '*';
        strcpy(pattern + 80, "b");
        memset(s, 'a', sizeof s - 1);
        s[sizeof s - 1] = 0;
        ASSERT_FALSE(bls_glob_match(pattern, s));
        s[sizeof s - 2] = 'b';
        ASSERT_TRUE(bls_glob_match(pattern, s));
}

TEST(load_options) {
        BlsEntry *both = entry("a.conf", "uki-url :x.efi\nprofile 2\noptions quiet splash");
        BlsEntry *profile = entry("b.conf", "uki-url :x.efi\nprofile 1");
        BlsEntry *options = entry("c.conf", "uki-url :x.efi\noptions console=ttyS0");
        BlsEntry *none = entry("d.conf", "uki-url :x.efi");
        char *s;

        s = bls_entry_load_options(both);
        ASSERT_STREQ(s, "@2 quiet splash");
        free(s);
        s = bls_entry_load_options(profile);
        ASSERT_STREQ(s, "@1");
        free(s);
        s = bls_entry_load_options(options);
        ASSERT_STREQ(s, "console=ttyS0");
        free(s);
        ASSERT_TRUE(bls_entry_load_options(none) == NULL);
        bls_entry_free(both);
        bls_entry_free(profile);
        bls_entry_free(options);
        bls_entry_free(none);
}

/* The orders the reference's userspace test expects. */
TEST(order_reference) {
        BlsEntry *b = entry("b.conf", "linux /v"), *a10 = entry("a-10.conf", "linux /v"), *a5 = entry("a-5.conf", "linux /v");
        BlsEntry *d = entry("d.conf", "sort-key kkkk\nlinux /v");
        BlsEntry *cx = entry("cx.conf", "sort-key xxxx\nversion 10\nlinux /v");
        BlsEntry *c = entry("c.conf", "sort-key xxxx\nversion 5\nlinux /v");
        BlsEntry *spent = entry("z+0-3.conf", "sort-key aaaa\nlinux /v");
        BlsEntry *more = entry("t+3.conf", "linux /v"), *fewer = entry("t+1-2.conf", "linux /v");
        BlsEntry *p0 = entry("p.conf", "uki /p.efi\nprofile 0"), *p1 = entry("p.conf", "uki /p.efi\nprofile 1");

        ASSERT_TRUE(bls_entry_compare(b, a10) < 0);
        ASSERT_TRUE(bls_entry_compare(a10, a5) < 0);
        ASSERT_TRUE(bls_entry_compare(d, cx) < 0);
        ASSERT_TRUE(bls_entry_compare(cx, c) < 0);
        ASSERT_TRUE(bls_entry_compare(c, b) < 0);
        ASSERT_TRUE(bls_entry_compare(b, spent) < 0);   /* no tries left: last, sort key or not */
        ASSERT_TRUE(bls_entry_compare(more, fewer) < 0); /* same ID: more tries left first */
        ASSERT_TRUE(bls_entry_compare(p0, p1) < 0);
        for (BlsEntry **e = (BlsEntry *[]) { b, a10, a5, d, cx, c, spent, more, fewer, p0, p1, NULL }; *e; e++)
                bls_entry_free(*e);
}

TEST(counter_rename) {
        static const char *const cases[][2] = {
                { "foo+3.conf", "foo+2-1.conf" },
                { "foo+2-1.conf", "foo+1-2.conf" },
                { "foo+1-2.conf", "foo+0-3.conf" },
                { "foo+4-0.efi", "foo+3-1.efi" },
                { "Foo+10-9.CONF", "Foo+9-10.CONF" },
                { "a+b+1.conf", "a+b+0-1.conf" },
        };
        char *s;

        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                ASSERT_OK(bls_counter_next_filename(cases[i][0], &s));
                ASSERT_STREQ(s, cases[i][1]);
                free(s);
        }
        ASSERT_EQ(bls_counter_next_filename("foo+0-3.conf", &s), -ENOENT); /* stops there */
        ASSERT_EQ(bls_counter_next_filename("foo.conf", &s), -ENOENT);
        ASSERT_EQ(bls_counter_next_filename("foo+2147483648.conf", &s), -ERANGE);
        ASSERT_EQ(bls_counter_next_filename("foo+3", &s), -ENOENT);     /* no .conf/.efi: no counter */
}

TEST(paths_and_architecture) {
        BlsEntry *x64 = entry("a.conf", "architecture X64\nlinux /v"), *any = entry("b.conf", "linux /v");
        char *p;

        p = bls_path_to_efi("/EFI//Linux/a.efi");
        ASSERT_STREQ(p, "\\EFI\\Linux\\a.efi");
        free(p);
        p = bls_path_to_efi("\\\\vmlinuz");
        ASSERT_STREQ(p, "\\vmlinuz");
        free(p);
        ASSERT_TRUE(bls_entry_for_architecture(x64, "x64"));
        ASSERT_FALSE(bls_entry_for_architecture(x64, "aa64"));
        ASSERT_TRUE(bls_entry_for_architecture(any, "aa64"));
        bls_entry_free(x64);
        bls_entry_free(any);
}

TEST(filename_rules) {
        ASSERT_TRUE(bls_filename_valid("debian.conf", ".conf"));
        ASSERT_TRUE(bls_filename_valid("Debian+3.CONF", ".conf"));
        ASSERT_TRUE(bls_filename_valid("os.EFI", ".efi"));
        ASSERT_FALSE(bls_filename_valid(".hidden.conf", ".conf"));
        ASSERT_FALSE(bls_filename_valid("auto-windows.conf", ".conf"));
        ASSERT_FALSE(bls_filename_valid("AUTO-x.efi", ".efi"));
        ASSERT_TRUE(bls_filename_valid("autox.conf", ".conf"));
        ASSERT_FALSE(bls_filename_valid(".conf", ".conf"));
        ASSERT_FALSE(bls_filename_valid("debian.conf.bak", ".conf"));
}
