/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The unit file reader and the quota settings read from unit files and drop-ins. */
#include <stdio.h>
#include <stdlib.h>

#include "macro.h"
#include "string-util.h"
#include "tests.h"
#include "unit-file.h"
#include "unit-info.h"
#include "unit-settings.h"

static int collect(const char *section, const char *key, const char *value, unsigned line, void *userdata) {
        char **out = userdata;

        if (!strextend(out, section, "/", key, "=", value, "|", NULL))
                return -ENOMEM;
        (void) line;
        return 0;
}

static char *parse(const char *text) {
        char *out = strdup("");

        ASSERT_TRUE(out);
        ASSERT_OK(unit_file_parse_text(text, strlen(text), collect, &out));
        return out;
}

TEST(syntax) {
        char *s;

        s = parse("\xef\xbb\xbf[Unit]\nDescription = a b \n\n# c=d\n; e=f\n[Service]\nExecStart=/bin/x \\\n  --y\nX=\n");
        ASSERT_STREQ(s, "Unit/Description=a b|Service/ExecStart=/bin/x    --y|Service/X=|");
        free(s);

        /* comment lines inside a continued line are dropped; a backslash ending a comment continues nothing */
        s = parse("[Service]\nA=1 \\\n# note \\\n2\nB=3\n");
        ASSERT_STREQ(s, "Service/A=1  2|Service/B=3|");
        free(s);

        /* an escaped backslash does not continue */
        s = parse("[Service]\nA=x\\\\\nB=y\n");
        ASSERT_STREQ(s, "Service/A=x\\\\|Service/B=y|");
        free(s);

        /* lines systemd skips: outside a section, no "=", no key, invalid UTF-8 */
        s = parse("A=1\n[Service]\nnoequals\n=novalue\nB=\xff\nC=ok\n");
        ASSERT_STREQ(s, "Service/C=ok|");
        free(s);

        /* the file may end inside a continued line */
        s = parse("[Service]\nA=1\\");
        ASSERT_STREQ(s, "Service/A=1|");
        free(s);
}

TEST(bad_section_header_refuses_the_file) {
        char *out = strdup("");

        ASSERT_TRUE(unit_file_parse_text("[Service\nA=1\n", 12, collect, &out) == -EBADMSG);
        free(out);
}

static UnitSettings settings_of(const char *const *texts) {
        UnitSettings s = UNIT_SETTINGS_INIT;

        for (size_t i = 0; texts[i]; i++)
                ASSERT_OK(unit_settings_add_text(&s, "test.conf", texts[i], strlen(texts[i])));
        return s;
}

TEST(quota_settings) {
        const char *const unit[] = {
                "[Service]\n"
                "ExecStart=/bin/true\n"
                "StateDirectory=foo bar\n"
                "StateDirectoryQuota=1M\n"
                "X-CacheDirectoryQuota=5%\n"
                "LogsDirectoryQuota=garbage\n"
                "StateDirectoryAccounting=yes\n"
                "X-LogsDirectoryAccounting=maybe\n"
                "ExecStartPre=/bin/a\n"
                "[Install]\n"
                "StateDirectoryQuota=9M\n",
                /* a drop-in: the last value wins, an empty one resets the list */
                "[Service]\n"
                "StateDirectoryQuota=2M\n"
                "StateDirectory=\n"
                "StateDirectory=baz \"q x\"\n"
                "ExecStartPre=-/bin/b %n\n"
                "ExecReload=/bin/kill -HUP $MAINPID\n",
                NULL,
        };
        UnitSettings s = settings_of(unit);

        ASSERT_TRUE(s.limits[QUOTA_DIR_STATE].enforce && s.limits[QUOTA_DIR_STATE].absolute == 2097152);
        ASSERT_TRUE(s.limits[QUOTA_DIR_STATE].accounting);
        ASSERT_TRUE(s.limits[QUOTA_DIR_CACHE].enforce && s.limits[QUOTA_DIR_CACHE].scale == 214748365);
        ASSERT_FALSE(s.limits[QUOTA_DIR_LOGS].enforce);
        ASSERT_FALSE(s.limits[QUOTA_DIR_LOGS].accounting);
        ASSERT_EQ(strv_length(s.directories[QUOTA_DIR_STATE]), 2);
        ASSERT_STREQ(s.directories[QUOTA_DIR_STATE][0], "baz");
        ASSERT_STREQ(s.directories[QUOTA_DIR_STATE][1], "q x");
        ASSERT_EQ(strv_length(s.exec[UNIT_EXEC_START_PRE]), 2);
        ASSERT_STREQ(s.exec[UNIT_EXEC_START_PRE][1], "-/bin/b %n");
        ASSERT_STREQ(s.exec[UNIT_EXEC_RELOAD][0], "/bin/kill -HUP $MAINPID");
        ASSERT_TRUE(s.exec[UNIT_EXEC_STOP] == NULL);
        ASSERT_EQ(strv_length(s.warnings), 2);
        ASSERT_STREQ(s.warnings[0], "test.conf:6: LogsDirectoryQuota=: Failed to parse disk quota value, ignoring: garbage");
        ASSERT_STREQ(s.warnings[1], "test.conf:8: X-LogsDirectoryAccounting=: Failed to parse boolean value, ignoring: maybe");
        ASSERT_TRUE(unit_settings_want_quota(&s));
        unit_settings_done(&s);
}

TEST(off_and_empty_disable) {
        const char *const unit[] = {
                "[Service]\nStateDirectoryQuota=1M\nCacheDirectoryQuota=1M\n",
                "[Service]\nStateDirectoryQuota=\nX-CacheDirectoryQuota=off\nExecStartPre=/x\nExecStartPre=\n",
                NULL,
        };
        UnitSettings s = settings_of(unit);

        ASSERT_FALSE(unit_settings_want_quota(&s));
        ASSERT_TRUE(s.exec[UNIT_EXEC_START_PRE] == NULL);
        unit_settings_done(&s);
}

TEST(other_sections_and_spellings_do_not_count) {
        const char *const unit[] = {
                "[Socket]\nStateDirectoryQuota=1M\n[Service]\nX-X-StateDirectoryQuota=1M\nStateDirectoryquota=1M\n"
                "RuntimeDirectoryQuota=1M\nConfigurationDirectoryAccounting=yes\n",
                NULL,
        };
        UnitSettings s = settings_of(unit);

        ASSERT_FALSE(unit_settings_want_quota(&s));
        unit_settings_done(&s);
}

TEST(directory_words) {
        const char *const unit[] = {
                "[Service]\nStateDirectory=a '' \"b c\" d\nCacheDirectory=x 'unbalanced y\n", NULL,
        };
        UnitSettings s = settings_of(unit);

        /* an empty word is skipped, an unbalanced quote ends the assignment (systemd: "Invalid syntax") */
        ASSERT_EQ(strv_length(s.directories[QUOTA_DIR_STATE]), 3);
        ASSERT_STREQ(s.directories[QUOTA_DIR_STATE][1], "b c");
        ASSERT_EQ(strv_length(s.directories[QUOTA_DIR_CACHE]), 1);
        ASSERT_STREQ(s.directories[QUOTA_DIR_CACHE][0], "x");
        unit_settings_done(&s);
}

TEST(line_continues) {
        ASSERT_TRUE(unit_file_line_continues("a\\"));
        ASSERT_FALSE(unit_file_line_continues("a\\\\"));
        ASSERT_TRUE(unit_file_line_continues("a\\\\\\"));
        ASSERT_FALSE(unit_file_line_continues("a\\ "));
        ASSERT_FALSE(unit_file_line_continues(""));
}

/* The control group a stopped unit would get, as systemd builds it from the slice's name. */
TEST(cgroup_path_from_the_slice) {
        static const struct { const char *control_group, *slice, *id, *want; } cases[] = {
                { "", "system.slice", "foo.service", "/system.slice/foo.service" },
                { "", "a-b-c.slice", "x.service", "/a.slice/a-b.slice/a-b-c.slice/x.service" },
                { "", "-.slice", "y.service", "/y.service" },
                { "/system.slice/run.service", "system.slice", "run.service", "/system.slice/run.service" },
        };

        for (size_t n = 0; n < ELEMENTSOF(cases); n++) {
                UnitInfo i = { .control_group = (char *) cases[n].control_group, .slice = (char *) cases[n].slice,
                               .id = (char *) cases[n].id };
                char *path = NULL;

                ASSERT_OK(unit_info_cgroup_path(&i, &path));
                ASSERT_STREQ(path, cases[n].want);
                free(path);
        }
        UnitInfo none = { .control_group = (char *) "", .slice = (char *) "", .id = (char *) "z.service" };
        char *path = NULL;
        ASSERT_EQ(unit_info_cgroup_path(&none, &path), -EINVAL);
}
