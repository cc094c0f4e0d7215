/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* RefuseRecordTypes= as v258 reads it: the type names, the value syntax, and the file cases of
 * test/data/resolve/refuse-config-cases.txt (the same cases test/resolve/beside-resolved.py gives to
 * systemd-resolved 262). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf-syntax.h"
#include "dns-record-type.h"
#include "fileio.h"
#include "macro.h"
#include "mkdir.h"
#include "path-util.h"
#include "refuse-config.h"
#include "string-util.h"
#include "tests.h"

TEST(type_names) {
        ASSERT_EQ(dns_record_type_from_string("A"), 1);
        ASSERT_EQ(dns_record_type_from_string("AAAA"), 28);
        ASSERT_EQ(dns_record_type_from_string("NSAP-PTR"), 23);
        ASSERT_EQ(dns_record_type_from_string("RESINFO"), 261);
        ASSERT_EQ(dns_record_type_from_string("DLV"), 32769);
        ASSERT_EQ(dns_record_type_from_string("aaaa"), 28);
        ASSERT_EQ(dns_record_type_from_string("nsap-ptr"), 23);
        ASSERT_EQ(dns_record_type_from_string("NSAP_PTR"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string(""), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("WALLET"), -EINVAL); /* 262: not in v258's table */
        ASSERT_STREQ(dns_record_type_to_string(28), "AAAA");
        ASSERT_TRUE(dns_record_type_to_string(54) == NULL);
}

TEST(type_numbers) {
        ASSERT_EQ(dns_record_type_from_string("TYPE28"), 28);
        ASSERT_EQ(dns_record_type_from_string("type28"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE0x1c"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE0X1C"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE034"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE0o34"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE0b11100"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE+28"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE 28"), 28);
        ASSERT_EQ(dns_record_type_from_string("TYPE65535"), 65535);
        ASSERT_EQ(dns_record_type_from_string("TYPE-0"), 0);
        ASSERT_EQ(dns_record_type_from_string("TYPE65536"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE-28"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE0x"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE0b"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE08"), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE28 "), -EINVAL);
        ASSERT_EQ(dns_record_type_from_string("TYPE99999999999999999999"), -EINVAL);
}

TEST(extract_words) {
        const char *p = "  a\\ b  \"c\"\td\\\\ ";
        char *w;

        ASSERT_EQ(conf_extract_word(&p, &w), 1);
        ASSERT_STREQ(w, "a b");
        free(w);
        ASSERT_EQ(conf_extract_word(&p, &w), 1);
        ASSERT_STREQ(w, "\"c\"");
        free(w);
        ASSERT_EQ(conf_extract_word(&p, &w), 1);
        ASSERT_STREQ(w, "d\\");
        free(w);
        ASSERT_EQ(conf_extract_word(&p, &w), 0);

        p = "x y\\";
        ASSERT_EQ(conf_extract_word(&p, &w), 1);
        free(w);
        ASSERT_EQ(conf_extract_word(&p, &w), -EINVAL);
}

static void count_warning(const char *message, void *userdata) {
        (*(int *) userdata)++;
}

TEST(value_warnings) {
        RefuseSet s;
        int warnings = 0;

        refuse_set_clear(&s);
        ASSERT_OK(refuse_record_types_apply(&s, "AAAA bogus TXT TYPE70000", count_warning, &warnings));
        ASSERT_EQ(warnings, 2);
        ASSERT_EQ(refuse_set_count(&s), 2);
        ASSERT_TRUE(refuse_set_contains(&s, 28));
        ASSERT_TRUE(refuse_set_contains(&s, 16));
        ASSERT_OK(refuse_record_types_apply(&s, "", count_warning, &warnings));
        ASSERT_EQ(refuse_set_count(&s), 0);
}

TEST(set_iteration) {
        RefuseSet s;
        int seen[4], n = 0;

        refuse_set_clear(&s);
        refuse_set_add(&s, 65535);
        refuse_set_add(&s, 0);
        refuse_set_add(&s, 64);
        refuse_set_add(&s, 63);
        REFUSE_SET_FOREACH(t, &s) {
                ASSERT_TRUE(n < 4);
                seen[n++] = t;
        }
        ASSERT_EQ(n, 4);
        ASSERT_EQ(seen[0], 0);
        ASSERT_EQ(seen[1], 63);
        ASSERT_EQ(seen[2], 64);
        ASSERT_EQ(seen[3], 65535);
}

/* The cases file: one case at a time, its files written below a fresh root. */
typedef struct Case {
        char name[128];
        char root[2048];
        char *file;             /* the file being written, its content so far */
        size_t file_size;
        char file_path[8192];
        RefuseSet expected;
        bool has_expected, stops;
        int count;
} Case;

/* "<0xHH>" is a byte, "<noeol>" drops the line end. */
static void append_line(Case *c, const char *line) {
        bool eol = true;

        for (const char *p = line; *p;) {
                unsigned b;
                int n = 0;

                if (startswith(p, "<noeol>")) {
                        eol = false;
                        p += STRLEN("<noeol>");
                        continue;
                }
                if (sscanf(p, "<0x%2x>%n", &b, &n) == 1 && n == 6) {
                        c->file = realloc(c->file, c->file_size + 1);
                        c->file[c->file_size++] = (char) b;
                        p += n;
                        continue;
                }
                c->file = realloc(c->file, c->file_size + 1);
                c->file[c->file_size++] = *p++;
        }
        if (eol) {
                c->file = realloc(c->file, c->file_size + 1);
                c->file[c->file_size++] = '\n';
        }
        ASSERT_TRUE(c->file || c->file_size == 0);
}

static void flush_file(Case *c) {
        _cleanup_close_ int fd = -1;

        if (!c->file_path[0])
                return;
        ASSERT_OK(mkdir_parents(c->file_path, 0755));
        fd = open(c->file_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        ASSERT_TRUE(fd >= 0);
        ASSERT_OK(write_all(fd, c->file ?: "", c->file_size));
        c->file = mfree(c->file);
        c->file_size = 0;
        c->file_path[0] = 0;
}

static void format_set(const RefuseSet *s, char *buf, size_t size) {
        size_t n = 0;

        buf[0] = 0;
        REFUSE_SET_FOREACH(t, s)
                n += (size_t) snprintf(buf + n, n < size ? size - n : 0, "%s%d", n ? " " : "", t);
        if (!n)
                snprintf(buf, size, "-");
}

static void run_case(Case *c) {
        RefuseConfig config;
        char want[4096], got[4096];

        flush_file(c);
        if (!c->name[0])
                return;
        ASSERT_TRUE(c->has_expected);
        ASSERT_OK(refuse_config_load(c->root, &config));
        format_set(&c->expected, want, sizeof want);
        format_set(&config.types, got, sizeof got);
        if (!streq(want, got) || (config.error < 0) != c->stops) {
                STRV_FOREACH(d, config.diagnostics)
                        test_note("%s", *d);
                test_fail(__FILE__, __LINE__, "case %s: expected {%s}%s, got {%s}%s (%s)", c->name, want,
                          c->stops ? " and a stop" : "", got, config.error < 0 ? " and a stop" : "",
                          config.error < 0 ? strerror(-config.error) : "read to the end");
        }
        refuse_config_done(&config);
        c->count++;
        c->name[0] = 0;
}

static void on_case_line(char *line, int lineno, void *userdata) {
        Case *c = userdata;
        char *rest;

        if ((rest = startswith(line, "case: "))) {
                run_case(c);
                snprintf(c->name, sizeof c->name, "%s", rest);
                snprintf(c->root, sizeof c->root, "%s/%s", test_tmpdir(), rest);
                ASSERT_OK(mkdir_p(c->root, 0755));
                refuse_set_clear(&c->expected);
                c->has_expected = c->stops = false;
        } else if ((rest = startswith(line, "== "))) {
                flush_file(c);
                snprintf(c->file_path, sizeof c->file_path, "%s/%s", c->root, rest);
                c->file = strdup("");
                c->file_size = 0;
        } else if ((rest = startswith(line, "-> "))) {
                char *arrow = strstr(rest, " -> "), link[8192];

                flush_file(c);
                ASSERT_TRUE(arrow);
                *arrow = 0;
                snprintf(link, sizeof link, "%s/%s", c->root, rest);
                ASSERT_OK(mkdir_parents(link, 0755));
                ASSERT_TRUE(symlink(arrow + 4, link) >= 0);
        } else if ((rest = startswith(line, "=> "))) {
                const char *p = rest;
                char *w;

                flush_file(c);
                c->has_expected = true;
                while (!streq(rest, "-") && conf_extract_word(&p, &w) > 0) {
                        int t = dns_record_type_from_string(w);

                        if (t < 0)
                                t = atoi(w);
                        refuse_set_add(&c->expected, (uint16_t) t);
                        free(w);
                }
        } else if (streq(line, "stops"))
                c->stops = true;
        else if (c->file_path[0])
                append_line(c, line);
        else
                test_fail(__FILE__, lineno, "unexpected line in the cases file: %s", line);
}

/* test_foreach_line() skips empty lines and comments, which file contents need: read it ourselves. */
TEST(config_cases) {
        _cleanup_free_ char *text = NULL;
        Case c = {};
        char *line, *save = NULL;

        ASSERT_OK(read_full_file(test_data_path("resolve/refuse-config-cases.txt"), 1 << 20, &text, NULL));
        for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                if (!c.file_path[0] && (line[0] == '#' || isempty(line)))
                        continue;
                on_case_line(line, 0, &c);
        }
        run_case(&c);
        test_note("%d cases", c.count);
        ASSERT_TRUE(c.count >= 40);
}

TEST(no_root_means_the_system) {
        /* urlboot-resolve without --root= passes NULL: the system's own files, whatever they say */
        RefuseConfig config;

        ASSERT_OK(refuse_config_load(NULL, &config));
        refuse_config_done(&config);
}
