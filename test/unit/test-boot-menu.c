/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the boot manager's rules: loader.conf (test/data/loader-conf-cases.tsv), timeouts,
 * reboot-on-error (test/data/reboot-on-error-cases.tsv), default selection, unique titles,
 * the line rules, and Type #2 entries made from UKIs built with our PE writer. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bls-menu.h"
#include "conf-line.h"
#include "fileio.h"
#include "loader-conf.h"
#include "pe-writer.h"
#include "tests.h"
#include "uki-entry.h"

static void format_timeout(uint32_t t, char *buf, size_t n) {
        if (t == LOADER_TIMEOUT_UNSET)
                snprintf(buf, n, "unset");
        else if (t == LOADER_TIMEOUT_MENU_FORCE)
                snprintf(buf, n, "menu-force");
        else if (t == LOADER_TIMEOUT_MENU_HIDDEN)
                snprintf(buf, n, "menu-hidden");
        else if (t == LOADER_TIMEOUT_MENU_DISABLED)
                snprintf(buf, n, "menu-disabled");
        else
                snprintf(buf, n, "%u", t);
}

static void conf_case(char *line, int lineno, void *userdata) {
        static const char *const reboot[] = { "no", "yes", "auto" }, *const console[] = { "keep", "auto", "max" };
        char *f[2], *body, timeout[32], mode[16], got[512];
        LoaderConf c;

        if (test_split_fields(line, f, 2) != 2)
                test_fail(__FILE__, __LINE__, "line %d: two fields needed", lineno);
        body = test_unescape(f[0]);
        loader_conf_init(&c);
        ASSERT_OK(loader_conf_parse(&c, body, strlen(body)));
        format_timeout(c.timeout, timeout, sizeof timeout);
        if (c.console_mode == CONSOLE_MODE_NUMBER)
                snprintf(mode, sizeof mode, "%u", c.console_mode_number);
        else
                snprintf(mode, sizeof mode, "%s", console[c.console_mode]);
        snprintf(got, sizeof got, "%s %s %s %s %s", timeout, c.default_pattern ?: "-", c.editor ? "yes" : "no",
                 reboot[c.reboot_on_error], mode);
        if (strcmp(got, f[1]) != 0)
                test_fail(__FILE__, __LINE__, "line %d: got \"%s\", expected \"%s\"", lineno, got, f[1]);
        loader_conf_done(&c);
        free(body);
        (*(int *) userdata)++;
}

TEST(loader_conf) {
        int n = 0;

        test_foreach_line("loader-conf-cases.tsv", conf_case, &n);
        ASSERT_TRUE(n >= 20);
}

/* urlboot's rollout keys in loader.conf (systemd-boot ignores them) */
TEST(rollout_keys) {
        static const char text[] = "timeout 0\nurlboot-entries :entries.efi\nurlboot-rollout-tries 2\n";
        LoaderConf c;

        loader_conf_init(&c);
        ASSERT_EQ(c.rollout_tries, 3);
        ASSERT_TRUE(c.rollout_entries == NULL);
        ASSERT_OK(loader_conf_parse(&c, text, strlen(text)));
        ASSERT_STREQ(c.rollout_entries, ":entries.efi");
        ASSERT_EQ(c.rollout_tries, 2);
        /* 0 and out-of-range tries are ignored, as every bad value in loader.conf */
        ASSERT_OK(loader_conf_parse(&c, "urlboot-rollout-tries 0\n", 24));
        ASSERT_OK(loader_conf_parse(&c, "urlboot-rollout-tries 101\n", 26));
        ASSERT_EQ(c.rollout_tries, 2);
        loader_conf_done(&c);
}

static void reboot_case(char *line, int lineno, void *userdata) {
        char *f[5];
        RebootOnError mode;
        bool r;

        if (test_split_fields(line, f, 5) != 5)
                test_fail(__FILE__, __LINE__, "line %d: five fields needed", lineno);
        mode = !strcmp(f[0], "yes") ? REBOOT_ON_ERROR_YES : !strcmp(f[0], "no") ? REBOOT_ON_ERROR_NO : REBOOT_ON_ERROR_AUTO;
        r = loader_reboot_after_failure(mode, atoi(f[1]), !strcmp(f[2], "uki-url"), !strcmp(f[3], "yes"));
        if (r != !strcmp(f[4], "reboot"))
                test_fail(__FILE__, __LINE__, "line %d: expected %s", lineno, f[4]);
        (*(int *) userdata)++;
}

TEST(reboot_on_error) {
        int n = 0;

        test_foreach_line("reboot-on-error-cases.tsv", reboot_case, &n);
        ASSERT_TRUE(n >= 10);
}

TEST(timeouts) {
        const uint32_t U = LOADER_TIMEOUT_UNSET;

        ASSERT_EQ(loader_timeout_effective(5, U, U), 5);
        ASSERT_EQ(loader_timeout_effective(5, 7, U), 7);              /* the variable beats the file */
        ASSERT_EQ(loader_timeout_effective(5, 7, 2), 2);              /* the one-shot beats both */
        ASSERT_EQ(loader_timeout_effective(5, 7, 0), LOADER_TIMEOUT_MENU_FORCE); /* and forces the menu */
        ASSERT_EQ(loader_timeout_effective(U, U, U), U);
        ASSERT_EQ(loader_menu_mode(U), MENU_MODE_HIDDEN);
        ASSERT_EQ(loader_menu_mode(0), MENU_MODE_HIDDEN);
        ASSERT_EQ(loader_menu_mode(3), MENU_MODE_COUNTDOWN);
        ASSERT_EQ(loader_menu_mode(LOADER_TIMEOUT_MENU_FORCE), MENU_MODE_WAIT);
        ASSERT_EQ(loader_menu_mode(LOADER_TIMEOUT_MENU_DISABLED), MENU_MODE_BOOT_NOW);
}

static BlsEntry *entry(const char *file, const char *body) {
        BlsEntry *e;

        ASSERT_OK(bls_entry_parse(file, body, strlen(body), &e));
        return e;
}

TEST(default_selection) {
        BlsEntry *e[] = { entry("debian-6.1.conf", "linux /v"), entry("debian-5.10.conf", "linux /v"),
                          entry("net.conf", "uki-url :x.efi") };
        BlsDefaultRequest none = {}, oneshot = { .oneshot = "net.conf", .variable = "debian-5*" };
        BlsDefaultRequest var = { .variable = "DEBIAN-5*", .conf = "net*" }, conf = { .conf = "net*" };
        BlsDefaultRequest saved = { .conf = "@saved", .saved = "debian-5.10.conf" };
        BlsDefaultRequest saved_missing = { .variable = "@saved", .conf = "net.conf" };
        BlsDefaultRequest nomatch = { .oneshot = "gone", .variable = "gone*", .conf = "x" };

        ASSERT_EQ(bls_pick_default(e, 3, &none), 0);
        ASSERT_EQ(bls_pick_default(e, 3, &oneshot), 2);
        ASSERT_EQ(bls_pick_default(e, 3, &var), 1);
        ASSERT_EQ(bls_pick_default(e, 3, &conf), 2);
        ASSERT_EQ(bls_pick_default(e, 3, &saved), 1);
        ASSERT_EQ(bls_pick_default(e, 3, &saved_missing), 2);
        ASSERT_EQ(bls_pick_default(e, 3, &nomatch), 0);
        for (size_t i = 0; i < 3; i++)
                bls_entry_free(e[i]);
}

TEST(unique_titles) {
        BlsEntry *e[] = {
                entry("a.conf", "title Debian\nversion 6.1\nlinux /v"),
                entry("b.conf", "title Debian\nversion 5.10\nlinux /v"),
                entry("c.conf", "title Arch\nmachine-id 0123456789abcdef\nlinux /v"),
                entry("d.conf", "title Arch\nmachine-id fedcba9876543210\nlinux /v"),
                entry("e.conf", "title Same\nlinux /v"),
                entry("f.conf", "title Same\nlinux /v"),
                entry("g.conf", "linux /v"),
        };
        static const char *const want[] = { "Debian (6.1)", "Debian (5.10)", "Arch (01234567)", "Arch (fedcba98)",
                                            "Same (e.conf)", "Same (f.conf)", "g.conf" };
        char *t[7];

        ASSERT_OK(bls_titles_make(e, 7, t));
        for (size_t i = 0; i < 7; i++) {
                ASSERT_STREQ(t[i], want[i]);
                free(t[i]);
                bls_entry_free(e[i]);
        }
}

TEST(conf_lines) {
        const char text[] = "  # c\nKEY=\"quoted value\"\r\nnoseparator\n=novalue\nX==y\nK=v\n";
        size_t pos = 0;
        ConfLine l;
        char *v;

        ASSERT_TRUE(conf_line_next(text, sizeof text - 1, &pos, "=", &l));
        ASSERT_TRUE(conf_line_key_is(&l, "KEY"));
        ASSERT_EQ(l.value_len, 12);
        ASSERT_TRUE(conf_line_next(text, sizeof text - 1, &pos, "=", &l));
        ASSERT_TRUE(conf_line_key_is(&l, "X")); /* separators run together */
        ASSERT_EQ(l.value_len, 1);
        ASSERT_TRUE(conf_line_next(text, sizeof text - 1, &pos, "=", &l));
        ASSERT_FALSE(conf_line_next(text, sizeof text - 1, &pos, "=", &l));
        v = conf_osrel_value(text, sizeof text - 1, "K");
        ASSERT_STREQ(v, "v");
        free(v);
        ASSERT_EQ(conf_parse_bool("on", 2), 1);
        ASSERT_EQ(conf_parse_bool("ON", 2), -EINVAL);
        ASSERT_EQ(conf_parse_bool("f", 1), 0);
}

/* A UKI made with our PE writer from the stub this build made. */
static void *make_uki(const PeNewSection *s, size_t n, size_t *ret_size) {
        const char *stub = getenv("URLBOOT_TEST_STUB");
        char *image, error[256];
        void *uki;
        size_t size;

        if (!stub || access(stub, F_OK) < 0)
                return NULL;
        ASSERT_OK(read_full_file(stub, 16 << 20, &image, &size));
        ASSERT_OK(pe_append_sections(image, size, s, n, &uki, ret_size, error, sizeof error));
        free(image);
        return uki;
}

TEST(type2_entries) {
        static const char osrel[] = "NAME=Debian\nPRETTY_NAME=\"Debian GNU/Linux 12\"\nID=debian\nVERSION_ID=12\n";
        PeNewSection plain[] = { { ".osrel", osrel, sizeof osrel - 1 }, { ".cmdline", "quiet\0\0", 7 } };
        PeNewSection multi[] = {
                { ".osrel", "ID=demo\nIMAGE_VERSION=7\n", 24 }, { ".cmdline", "base", 4 },
                { ".profile", "ID=default\n", 11 },
                { ".profile", "TITLE=Rescue\n", 13 }, { ".cmdline", "rescue", 6 },
                { ".profile", "", 0 },
        };
        BlsEntry *e[8];
        size_t size;
        void *uki = make_uki(plain, 2, &size);
        int n;

        if (!uki) {
                test_note("no stub built (gnu-efi missing): skipped");
                return;
        }
        n = uki_entries_make("Debian+3.efi", "\\EFI\\Linux\\Debian+3.efi", uki, size, false, e, 8);
        ASSERT_EQ(n, 1);
        ASSERT_STREQ(e[0]->id, "debian.efi");
        ASSERT_STREQ(e[0]->title, "Debian GNU/Linux 12");
        ASSERT_STREQ(e[0]->version, "12");
        ASSERT_STREQ(e[0]->sort_key, "debian");
        ASSERT_STREQ(e[0]->options, "quiet");
        ASSERT_EQ(e[0]->tries_left, 3);
        ASSERT_TRUE(e[0]->options_implied);
        ASSERT_TRUE(bls_entry_load_options(e[0]) == NULL); /* the UKI applies its own .cmdline */
        bls_entry_free(e[0]);
        free(uki);

        uki = make_uki(multi, 6, &size);
        n = uki_entries_make("m.efi", "\\EFI\\Linux\\m.efi", uki, size, false, e, 8);
        ASSERT_EQ(n, 3);
        ASSERT_STREQ(e[0]->id, "m.efi@default");
        ASSERT_STREQ(e[0]->title, "demo (default)");
        ASSERT_STREQ(e[0]->options, "base");
        ASSERT_STREQ(e[1]->id, "m.efi@1");
        ASSERT_STREQ(e[1]->title, "demo (Rescue)");
        ASSERT_STREQ(e[1]->options, "rescue");
        ASSERT_STREQ(e[2]->title, "demo (Profile #3)");
        ASSERT_STREQ(e[2]->version, "7");
        for (int i = 0; i < n; i++) {
                char *o = bls_entry_load_options(e[i]);
                char want[8];
                snprintf(want, sizeof want, "@%d", i);
                ASSERT_STREQ(o, want);
                free(o);
                bls_entry_free(e[i]);
        }
        free(uki);
        ASSERT_EQ(uki_entries_make("x.efi", "\\x.efi", "MZ", 2, false, e, 8), -EBADMSG);
}
