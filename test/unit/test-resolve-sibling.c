/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sibling rule of v258's parallel A/AAAA lookups (sibling-timer.c), driven by a fake clock. */
#include <stdlib.h>
#include <string.h>

#include "sibling-timer.h"
#include "string-util.h"
#include "tests.h"

#define S(x) ((uint64_t) ((x) * 1000000.0))
#define A 1
#define AAAA 28
#define NOERROR 0
#define SERVFAIL 2
#define NXDOMAIN 3

typedef struct Fired {
        char keys[16][64];
        uint16_t types[16];
        int n;
} Fired;

static void on_fire(const char *key, uint16_t type, void *userdata) {
        Fired *f = userdata;

        ASSERT_TRUE(f->n < 16);
        snprintf(f->keys[f->n], sizeof f->keys[0], "%s", key);
        f->types[f->n++] = type;
}

static int expire(SiblingTable *t, double now, Fired *f) {
        int before = f->n;

        sibling_expire(t, S(now), on_fire, f);
        return f->n - before;
}

TEST(aaaa_gets_nodata_six_seconds_after_a) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", A, S(0)));
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(0)));
        ASSERT_EQ(sibling_next_deadline(t), SIBLING_NEVER);
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(0.25)));
        ASSERT_EQ(sibling_next_deadline(t), S(6.25));

        /* resolved 252 resends the AAAA query every 5 s: that moves nothing. */
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(5)));
        ASSERT_EQ(sibling_next_deadline(t), S(6.25));
        ASSERT_EQ(expire(t, 6.24, &f), 0);
        ASSERT_EQ(expire(t, 6.25, &f), 1);
        ASSERT_STREQ(f.keys[0], "x./1");
        ASSERT_EQ(f.types[0], AAAA);
        ASSERT_EQ(sibling_next_deadline(t), SIBLING_NEVER);
        ASSERT_EQ(expire(t, 100, &f), 0);
        sibling_table_free(t);
}

TEST(a_gets_nodata_after_aaaa) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(1)));
        ASSERT_OK(sibling_query_started(t, "x./1", A, S(1)));
        ASSERT_OK(sibling_answered(t, "x./1", AAAA, NOERROR, 60, S(2)));
        ASSERT_EQ(expire(t, 8, &f), 1);
        ASSERT_EQ(f.types[0], A);
        sibling_table_free(t);
}

TEST(only_noerror_counts) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "nx./1", A, S(0)));
        ASSERT_OK(sibling_query_started(t, "nx./1", AAAA, S(0)));
        ASSERT_OK(sibling_answered(t, "nx./1", A, NXDOMAIN, 300, S(0.1)));
        ASSERT_OK(sibling_query_started(t, "sf./1", A, S(0)));
        ASSERT_OK(sibling_query_started(t, "sf./1", AAAA, S(0)));
        ASSERT_OK(sibling_answered(t, "sf./1", A, SERVFAIL, 300, S(0.1)));
        ASSERT_EQ(sibling_next_deadline(t), SIBLING_NEVER);
        ASSERT_EQ(expire(t, 200, &f), 0);
        sibling_table_free(t);
}

TEST(nodata_counts_as_success) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "v6only./1", AAAA, S(0)));
        ASSERT_OK(sibling_query_started(t, "v6only./1", A, S(0)));
        ASSERT_OK(sibling_answered(t, "v6only./1", A, NOERROR, 0, S(1))); /* NODATA, no TTL known */
        ASSERT_EQ(expire(t, 7, &f), 1);
        ASSERT_EQ(f.types[0], AAAA);
        sibling_table_free(t);
}

TEST(answer_before_deadline_disarms) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", A, S(0)));
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(0.1)));
        ASSERT_OK(sibling_answered(t, "x./1", AAAA, NOERROR, 300, S(3)));
        ASSERT_EQ(sibling_next_deadline(t), SIBLING_NEVER);
        ASSERT_EQ(expire(t, 10, &f), 0);
        sibling_table_free(t);
}

TEST(timer_is_never_rearmed) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", A, S(0)));
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(1)));
        /* A second answer to a resent A query does not push the deadline back. */
        ASSERT_OK(sibling_query_started(t, "x./1", A, S(4)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(4.5)));
        ASSERT_EQ(sibling_next_deadline(t), S(7));
        ASSERT_EQ(expire(t, 7, &f), 1);
        sibling_table_free(t);
}

TEST(query_arriving_within_the_window_keeps_the_first_deadline) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", A, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(0.5)));
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(2)));
        ASSERT_EQ(sibling_next_deadline(t), S(6.5));
        ASSERT_EQ(expire(t, 6.5, &f), 1);
        sibling_table_free(t);
}

TEST(cached_sibling_starts_the_timer_with_the_query) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        /* A cached by resolved for 300 s: a later lookup only asks for AAAA. */
        ASSERT_OK(sibling_query_started(t, "x./1", A, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(0.1)));
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(100)));
        ASSERT_EQ(sibling_next_deadline(t), S(106));
        ASSERT_EQ(expire(t, 106, &f), 1);

        /* After the TTL the success is forgotten: AAAA waits for its own answer. */
        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(400)));
        ASSERT_EQ(sibling_next_deadline(t), SIBLING_NEVER);
        sibling_table_free(t);
}

TEST(names_and_classes_are_separate) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(0)));
        ASSERT_OK(sibling_query_started(t, "x./3", AAAA, S(0)));
        ASSERT_OK(sibling_query_started(t, "y./1", AAAA, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 300, S(0)));
        ASSERT_EQ(expire(t, 60, &f), 1);
        ASSERT_STREQ(f.keys[0], "x./1");
        sibling_table_free(t);
}

TEST(other_types_take_no_part) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", 16, S(0)));
        ASSERT_OK(sibling_query_started(t, "x./1", 33, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", 16, NOERROR, 300, S(0)));
        ASSERT_EQ(sibling_table_size(t), 0);
        ASSERT_EQ(expire(t, 60, &f), 0);
        sibling_table_free(t);
}

TEST(forgotten_queries_do_not_fire_and_entries_go_away) {
        SiblingTable *t = sibling_table_new();
        Fired f = {};

        ASSERT_OK(sibling_query_started(t, "x./1", AAAA, S(0)));
        ASSERT_OK(sibling_answered(t, "x./1", A, NOERROR, 10, S(0)));
        sibling_forget(t, "x./1", AAAA);
        ASSERT_EQ(sibling_next_deadline(t), SIBLING_NEVER);
        ASSERT_EQ(expire(t, 5, &f), 0);
        ASSERT_EQ(sibling_table_size(t), 1); /* the A success still stands for its TTL */
        ASSERT_EQ(expire(t, 11, &f), 0);
        ASSERT_EQ(sibling_table_size(t), 0);
        sibling_table_free(t);
}

TEST(many_names_stay_bounded) {
        SiblingTable *t = sibling_table_new();
        char key[32];

        for (int i = 0; i < 10000; i++) {
                snprintf(key, sizeof key, "n%d./1", i);
                ASSERT_OK(sibling_answered(t, key, A, NOERROR, 3600, S(i)));
        }
        ASSERT_TRUE(sibling_table_size(t) <= 4096);
        sibling_table_free(t);
}
