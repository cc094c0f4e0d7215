/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rollouts of network images (src/fundamental/rollout.c): the decision table test/data/rollout-cases.tsv,
 * counting and blessing, the variable's text read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rollout.h"
#include "string-util.h"
#include "tests.h"

static size_t split_list(char *s, const char *sep, char **out, size_t max) {
        size_t n = 0;

        if (streq(s, "-"))
                return 0;
        for (char *save = NULL, *t = strtok_r(s, sep, &save); t && n < max; t = strtok_r(NULL, sep, &save))
                out[n++] = t;
        return n;
}

/* Append a line of the table's STORE column, with "\\0" as a NUL byte (an ID cut short must not pass). */
static size_t append_line(char *text, size_t n, const char *line) {
        for (const char *p = line; *p; p++) {
                if (p[0] == '\\' && p[1] == '0') {
                        text[n++] = 0;
                        p++;
                } else
                        text[n++] = *p;
        }
        text[n++] = '\n';
        return n;
}

/* Which of ids are in the comma list (the TRIED column). */
static void tried_from(char *list, char **ids, size_t n_ids, bool *tried) {
        char *names[ROLLOUT_ENTRIES_MAX];
        size_t n = split_list(list, ",", names, ELEMENTSOF(names));

        for (size_t i = 0; i < n_ids; i++) {
                tried[i] = false;
                for (size_t k = 0; k < n; k++)
                        tried[i] = tried[i] || streq(ids[i], names[k]);
        }
}

static void on_case(char *line, int lineno, void *userdata) {
        char *f[8], *lines[ROLLOUT_ENTRIES_MAX + 4], *ids[ROLLOUT_ENTRIES_MAX], skipped[300];
        char text[ROLLOUT_TEXT_MAX + 1];
        bool tried[ROLLOUT_ENTRIES_MAX];
        RolloutStore s;
        RolloutChoice c;
        size_t n_lines, n_ids, n = 0;
        static const char *const reasons[] = { "newest", "fallback", "none" };
        static const char *const skips[] = { "tries", "unfetched", "this-boot" };

        if (test_split_fields(line, f, 8) != 8)
                test_fail(__FILE__, lineno, "line %d: eight fields", lineno);
        n_lines = split_list(f[1], ";", lines, ELEMENTSOF(lines));
        for (size_t i = 0; i < n_lines; i++)
                n = append_line(text, n, lines[i]);
        rollout_store_parse(text, n, &s);
        n_ids = split_list(f[2], ",", ids, ELEMENTSOF(ids));
        tried_from(f[3], ids, n_ids, tried);
        rollout_choose((const char *const *) ids, n_ids, &s, tried, &c);
        if (c.newest_skipped >= 0)
                snprintf(skipped, sizeof skipped, "%s:%s", ids[c.newest_skipped], skips[c.skip]);
        else
                strcpy(skipped, "-");
        if (!streq(c.index >= 0 ? ids[c.index] : "-", f[4]) || !streq(reasons[c.reason], f[5]) ||
            c.trial != streq(f[6], "yes") || !streq(skipped, f[7]))
                test_fail(__FILE__, lineno, "%s: chose %s (%s, trial %d, newest skipped %s)", f[0],
                          c.index >= 0 ? ids[c.index] : "-", reasons[c.reason], c.trial, skipped);
        (*(int *) userdata)++;
}

TEST(decision_table) {
        int n = 0;

        test_foreach_line("rollout-cases.tsv", on_case, &n);
        ASSERT_TRUE(n >= 23);
        test_note("%d cases", n);
}

/* N+1 on trial with 2 tries: two starts that never bless it, then N again; blessed, it is never counted. */
TEST(counting_and_blessing) {
        const char *ids[] = { "image-42.conf", "image-41.conf" };
        RolloutStore s = {};
        RolloutChoice c;
        RolloutRecord *r;

        ASSERT_OK(rollout_count_start(&s, "image-41.conf", 2));
        ASSERT_OK(rollout_bless(&s, "image-41.conf"));
        for (int boot = 0; boot < 2; boot++) {
                rollout_choose(ids, 2, &s, NULL, &c);
                ASSERT_EQ(c.index, 0);
                ASSERT_TRUE(c.trial);
                ASSERT_OK(rollout_count_start(&s, ids[c.index], 2));
        }
        r = rollout_store_find(&s, "image-42.conf");
        ASSERT_TRUE(r && r->tries_left == 0 && r->tries_done == 2 && r->state == ROLLOUT_TRIAL);
        ASSERT_EQ(rollout_count_start(&s, "image-42.conf", 2), -ERANGE);
        rollout_choose(ids, 2, &s, NULL, &c);
        ASSERT_TRUE(c.index == 1 && !c.trial && c.reason == ROLLOUT_REASON_FALLBACK && c.newest_skipped == 0 &&
                    c.skip == ROLLOUT_SKIP_TRIES);
        /* a good entry's starts are not counted */
        ASSERT_OK(rollout_count_start(&s, "image-41.conf", 2));
        r = rollout_store_find(&s, "image-41.conf");
        ASSERT_TRUE(r->tries_done == 1 && r->state == ROLLOUT_GOOD);
        /* reset: new again, with all its tries */
        ASSERT_OK(rollout_reset(&s, "image-42.conf"));
        rollout_choose(ids, 2, &s, NULL, &c);
        ASSERT_TRUE(c.index == 0 && c.trial);
        ASSERT_EQ(rollout_bless(&s, "image-42.conf"), -ENOENT);
        ASSERT_EQ(rollout_count_start(&s, "bad id", 2), -EINVAL);
}

TEST(text_round_trip_and_prune) {
        const char *keep[] = { "b.conf", "c.conf" };
        char text[ROLLOUT_TEXT_MAX + 1], again[ROLLOUT_TEXT_MAX + 1];
        RolloutStore s = {}, t;

        ASSERT_OK(rollout_count_start(&s, "a.conf", 3));
        ASSERT_OK(rollout_count_start(&s, "b.conf", 3));
        ASSERT_OK(rollout_bless(&s, "b.conf"));
        ASSERT_OK(rollout_count_start(&s, "c.conf", 1));
        rollout_store_format(&s, text, sizeof text);
        ASSERT_STREQ(text, "a.conf trial 2 1\nb.conf good 2 1\nc.conf trial 0 1\n");
        rollout_store_parse(text, strlen(text), &t);
        rollout_store_format(&t, again, sizeof again);
        ASSERT_STREQ(again, text);
        rollout_store_prune(&t, keep, 2);
        rollout_store_format(&t, again, sizeof again);
        ASSERT_STREQ(again, "b.conf good 2 1\nc.conf trial 0 1\n");
}

TEST(store_is_bounded) {
        RolloutStore s = {};
        char id[32];

        for (int i = 0; i < ROLLOUT_ENTRIES_MAX; i++) {
                snprintf(id, sizeof id, "e%d.conf", i);
                ASSERT_OK(rollout_count_start(&s, id, 1));
        }
        ASSERT_EQ(rollout_count_start(&s, "one-more.conf", 1), -ENOSPC);
        ASSERT_FALSE(rollout_id_valid(""));
        ASSERT_FALSE(rollout_id_valid("a b"));
        ASSERT_FALSE(rollout_id_valid("a\nb"));
        ASSERT_TRUE(rollout_id_valid("image-42.conf"));
}

TEST(running_entry_variable) {
        static const char good[] = "image-42.conf\ntrial\nfallback: image-43.conf used up its tries";
        RolloutRunning r;

        ASSERT_OK(rollout_running_parse(good, strlen(good), &r));
        ASSERT_STREQ(r.id, "image-42.conf");
        ASSERT_EQ(r.state, ROLLOUT_TRIAL);
        ASSERT_STREQ(r.why, "fallback: image-43.conf used up its tries");
        ASSERT_OK(rollout_running_parse("a.conf\ngood\n", 12, &r));
        ASSERT_EQ(r.state, ROLLOUT_GOOD);
        ASSERT_STREQ(r.why, "");
        /* two lines, a fourth line, an invalid ID, an unknown state, control characters in the reason */
        ASSERT_EQ(rollout_running_parse("a.conf\ngood", 11, &r), -EINVAL);
        ASSERT_EQ(rollout_running_parse("a.conf\ngood\nx\ny", 15, &r), -EINVAL);
        ASSERT_EQ(rollout_running_parse("a conf\ngood\nx", 13, &r), -EINVAL);
        ASSERT_EQ(rollout_running_parse("a.conf\nbad\nx", 12, &r), -EINVAL);
        ASSERT_EQ(rollout_running_parse("a.conf\ngood\n\x1b[2J", 16, &r), -EINVAL);
        ASSERT_EQ(rollout_running_parse("", 0, &r), -EINVAL);
}
