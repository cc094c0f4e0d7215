/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urlboot-pull's option table: well-formed rows, made command-table.h's rows, and both man pages list what
 * the table has. */
#include <ctype.h>
#include <stdlib.h>

#include "fileio.h"
#include "pull-option.h"
#include "tests.h"

static char *man_page(const char *name) {
        char path[256], *text = NULL;

        snprintf(path, sizeof path, "../../man/%s", name);
        ASSERT_OK(read_full_file(test_data_path(path), 1024 * 1024, &text, NULL));
        return text;
}

/* word as a whole word of text (a word ending in '=' may be followed by anything) */
static bool has_word(const char *text, const char *word) {
        size_t n = strlen(word);

        for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
                bool start = p == text || !isalnum((unsigned char) p[-1]);
                bool end = word[n - 1] == '=' || !isalnum((unsigned char) p[n]);

                if (start && end)
                        return true;
        }
        return false;
}

TEST(rows_are_well_formed) {
        for (size_t i = 0; i < _PULL_OPTION_MAX; i++) {
                const PullOption *o = pull_options + i;

                ASSERT_TRUE(o->name && *o->name && o->help && *o->help);
                /* a switch has no placeholder, an option always one */
                ASSERT_EQ(o->value == PULL_VALUE_NONE, !o->metavar);
                for (size_t j = 0; j < i; j++)
                        ASSERT_TRUE(strcmp(o->name, pull_options[j].name) != 0);
        }
}

TEST(urlboot_pull_man_page_lists_every_option) {
        char *text = man_page("urlboot-pull.1");
        size_t missing = 0;

        for (size_t i = 0; i < _PULL_OPTION_MAX; i++) {
                char word[64];

                snprintf(word, sizeof word, "\\-\\-%s", pull_options[i].name);
                if (!has_word(text, word)) {
                        test_note("man/urlboot-pull.1 does not list --%s", pull_options[i].name);
                        missing++;
                }
        }
        free(text);
        ASSERT_EQ(missing, 0);
}

TEST(generator_man_page_lists_every_expression_option) {
        char *text = man_page("urlboot-import-generator.8");
        size_t missing = 0;

        for (size_t i = 0; i < _PULL_OPTION_MAX; i++) {
                const char *e = pull_options[i].expression;

                while (e && *e) {
                        size_t n = strcspn(e, ",");
                        char word[64];

                        snprintf(word, sizeof word, "%.*s", (int) n, e);
                        if (!has_word(text, word)) {
                                test_note("man/urlboot-import-generator.8 does not list '%s' (for --%s)", word,
                                          pull_options[i].name);
                                missing++;
                        }
                        e += n;
                        e += strspn(e, ", ");
                }
        }
        free(text);
        ASSERT_EQ(missing, 0);
}

TEST(write_switch_and_option) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        ASSERT_TRUE(f);
        pull_option_write(f, PULL_OPTION_READ_ONLY, NULL);
        pull_option_write(f, PULL_OPTION_VERIFY, "sha256:00");
        fclose(f);
        ASSERT_STREQ(buf, " --read-only --verify=sha256:00");
        free(buf);
}

TEST(rows_for_the_command_table) {
        OptionRow rows[_PULL_OPTION_MAX];

        pull_option_rows(rows, 0x100);
        for (size_t i = 0; i < _PULL_OPTION_MAX; i++) {
                const PullOption *o = pull_options + i;

                ASSERT_STREQ(rows[i].name, o->name);
                ASSERT_EQ(rows[i].short_name, 0);
                ASSERT_EQ(rows[i].id, 0x100 + (int) i);
                ASSERT_EQ(rows[i].argument, o->value == PULL_VALUE_NONE ? OPTION_SWITCH :
                                            o->value == PULL_VALUE_OPTIONAL_WORD ? OPTION_OPTIONAL : OPTION_REQUIRED);
                ASSERT_TRUE(rows[i].metavar == o->metavar && rows[i].help == o->help);
                ASSERT_EQ(!!rows[i].complete, o->value == PULL_VALUE_PATH);
        }
        ASSERT_STREQ(rows[PULL_OPTION_IMAGE_ROOT].complete, "dir");
        ASSERT_STREQ(rows[PULL_OPTION_KEYRING].complete, "file");
        ASSERT_STREQ(rows[PULL_OPTION_KEEP_DOWNLOAD].complete, "file");
}

static OptionRow table_rows[_PULL_OPTION_MAX];
static const CommandTable table = { .name = "urlboot-pull", .options = table_rows, .n_options = _PULL_OPTION_MAX };

/* What write() printed (open_memstream's buffer, freed by the caller). */
static char *capture(void (*write)(const CommandTable *t, FILE *f)) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        ASSERT_TRUE(f);
        pull_option_rows(table_rows, 0x100);
        write(&table, f);
        ASSERT_EQ(fclose(f), 0);
        return buf;
}

static void write_help(const CommandTable *t, FILE *f) {
        command_table_help(t, f);
}

TEST(help_has_a_line_per_option) {
        char *buf = capture(write_help);

        for (size_t i = 0; i < _PULL_OPTION_MAX; i++) {
                char head[64];

                snprintf(head, sizeof head, "\n     --%s%s", pull_options[i].name,
                         pull_options[i].value == PULL_VALUE_OPTIONAL_WORD ? "[=" : pull_options[i].metavar ? "=" : "");
                ASSERT_TRUE(strstr(buf, head));
        }
        free(buf);
}

/* A word's metavar "a|b|c" is what its value completes to. */
TEST(dump_completes_words_and_paths) {
        char *buf = capture(command_table_dump);

        ASSERT_TRUE(strstr(buf, "\"name\":\"class\",\"short\":null,\"argument\":\"required\","
                                "\"metavar\":\"machine|portable|sysext|confext\","));
        ASSERT_TRUE(strstr(buf, "\"complete\":\"words:machine portable sysext confext\"}"));
        ASSERT_TRUE(strstr(buf, "\"complete\":\"words:auto bar plain none\"}"));
        ASSERT_TRUE(strstr(buf, "\"name\":\"image-root\",\"short\":null,\"argument\":\"required\","
                                "\"metavar\":\"DIR\","));
        free(buf);
}
