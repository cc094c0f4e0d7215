/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Directory quota values, booleans, sizes and project IDs against test/data/dirquota-cases.tsv (whose results
 * come from systemd 262's own functions, see test/quota/oracle-262.c), plus SipHash's published vector. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "project-id.h"
#include "quota-apply.h"
#include "quota-format.h"
#include "quota-value.h"
#include "string-util.h"
#include "tests.h"

/* Our answer for one line of the table, in the table's words. */
static void answer(const char *kind, const char *arg, char *buf, size_t size) {
        if (streq(kind, "value")) {
                /* the oracle's sentinel: a value that is ignored leaves it as it was */
                QuotaLimit q = { .absolute = 7, .scale = 7, .enforce = true };

                if (quota_limit_parse(arg, &q) < 0)
                        snprintf(buf, size, "invalid");
                else if (!q.enforce)
                        snprintf(buf, size, "off");
                else if (q.absolute != UINT64_MAX)
                        snprintf(buf, size, "bytes %" PRIu64, q.absolute);
                else
                        snprintf(buf, size, "scale %" PRIu32, q.scale);
        } else if (streq(kind, "bool")) {
                int r = parse_boolean(arg);

                snprintf(buf, size, "%s", r < 0 ? "invalid" : r ? "yes" : "no");
        } else if (streq(kind, "bytes")) {
                char b[QUOTA_FORMAT_BYTES_MAX];

                snprintf(buf, size, "%s", quota_format_bytes(b, strtoull(arg, NULL, 10)) ?: "(null)");
        } else if (streq(kind, "hash")) {
                static const uint8_t key[16] = { 0xe1, 0x4a, 0x79, 0x9b, 0x64, 0x40, 0x41, 0x4a,
                                                 0xa8, 0x46, 0xc2, 0xf3, 0xf9, 0x19, 0x4f, 0x01 };
                uint64_t h = 0;

                if (siphash24(arg, strlen(arg), key, &h) < 0)
                        snprintf(buf, size, "error");
                else
                        snprintf(buf, size, "%" PRIu64, h);
        } else if (streq(kind, "project-id")) {
                const char *bar = strrchr(arg, '|');
                char *cgroup = strndup(arg, bar ? (size_t) (bar - arg) : strlen(arg));
                uint32_t id = 0;

                if (!bar || !cgroup || project_id_candidate(cgroup, bar + 1, &id) < 0)
                        snprintf(buf, size, "error");
                else
                        snprintf(buf, size, "%" PRIu32, id);
                free(cgroup);
        } else if (streq(kind, "type"))
                snprintf(buf, size, "%s", quota_dir_type_to_string(atoi(arg) - 1) ?: "(null)");
        else
                snprintf(buf, size, "unknown kind");
}

static void case_line(char *line, int lineno, void *userdata) {
        char *f[3], got[128], *arg;

        if (test_split_fields(line, f, 3) != 3)
                test_fail(__FILE__, __LINE__, "line %d: need three fields", lineno);
        arg = test_unescape(f[1]);
        answer(f[0], arg, got, sizeof got);
        if (!streq(got, f[2]))
                test_fail(__FILE__, __LINE__, "line %d: %s \"%s\": got \"%s\", want \"%s\"", lineno, f[0], f[1], got,
                          f[2]);
        free(arg);
        (*(int *) userdata)++;
}

TEST(cases_table) {
        int n = 0;

        test_foreach_line("dirquota-cases.tsv", case_line, &n);
        ASSERT_TRUE(n >= 130);
}

TEST(siphash_reference_vector) {
        /* SipHash-2-4, 64-bit output: key 00…0f, message 00…0e (Aumasson & Bernstein, appendix A) */
        uint8_t key[16], msg[15];
        uint64_t h;

        for (int i = 0; i < 16; i++)
                key[i] = i;
        for (int i = 0; i < 15; i++)
                msg[i] = i;
        ASSERT_OK(siphash24(msg, sizeof msg, key, &h));
        ASSERT_TRUE(h == UINT64_C(0xa129ca6149be45e5));
        ASSERT_OK(siphash24("", 0, key, &h));
        ASSERT_TRUE(h == UINT64_C(0x726fdb47dd0e0e31));
}

TEST(project_id_range) {
        ASSERT_TRUE(project_id_from_u64(0) == PROJECT_ID_MIN);
        ASSERT_TRUE(project_id_from_u64(UINT64_C(2147483646)) == PROJECT_ID_MAX);
        ASSERT_TRUE(project_id_from_u64(UINT64_C(2147483647)) == PROJECT_ID_MIN);
        ASSERT_TRUE(project_id_from_u64(UINT64_MAX) == (uint32_t) (UINT64_MAX % 2147483647) + PROJECT_ID_MIN);
        ASSERT_FALSE(project_id_in_range(0));
        ASSERT_FALSE(project_id_in_range(PROJECT_ID_MIN - 1));
        ASSERT_FALSE(project_id_in_range(UINT32_MAX));
        for (int i = 0; i < 1000; i++) {
                uint32_t id;

                ASSERT_OK(project_id_random(&id));
                ASSERT_TRUE(project_id_in_range(id));
        }
}

TEST(off_keeps_accounting) {
        QuotaLimit q = QUOTA_LIMIT_UNSET;

        q.accounting = true;
        ASSERT_OK(quota_limit_parse("1M", &q));
        ASSERT_TRUE(q.enforce && q.accounting && q.absolute == 1048576 && q.scale == UINT32_MAX);
        ASSERT_OK(quota_limit_parse("off", &q));
        ASSERT_TRUE(!q.enforce && q.accounting && q.absolute == UINT64_MAX && q.scale == UINT32_MAX);
        ASSERT_TRUE(quota_limit_parse("nonsense", &q) == -EINVAL);
        ASSERT_TRUE(!q.enforce && q.accounting);
}

TEST(status_line) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        ASSERT_TRUE(f);
        quota_print_status_line(f, "StateDirectory", 16384, 1048576);
        quota_print_status_line(f, "CacheDirectory", 512, UINT64_MAX);
        quota_print_status_line(f, "LogsDirectory", UINT64_MAX, 1048576);
        fclose(f);
        ASSERT_STREQ(buf, "        StateDirectory: 16K (max: 1M)\n"
                          "        CacheDirectory: 512B\n");
        free(buf);
}

static void expected_id_line(char *line, int lineno, void *userdata) {
        char unit[256], type[64], *cgroup = NULL;
        uint32_t want, got = 0;

        if (sscanf(line, "%255s %63s %" SCNu32, unit, type, &want) != 3)
                test_fail(__FILE__, __LINE__, "line %d: need UNIT TYPE ID", lineno);
        ASSERT_TRUE(asprintf(&cgroup, "/system.slice/%s.service", unit) > 0);
        ASSERT_OK(project_id_candidate(cgroup, type, &got));
        if (got != want)
                test_fail(__FILE__, __LINE__, "line %d: %s %s: %" PRIu32 ", the guest case expects %" PRIu32, lineno,
                          unit, type, got, want);
        free(cgroup);
        (*(int *) userdata)++;
}

TEST(guest_case_ids) {
        /* the IDs the guest case checks on real file systems are the ones this code computes */
        int n = 0;

        test_foreach_line("../guests/cases/dirquota.d/expected-ids", expected_id_line, &n);
        ASSERT_TRUE(n >= 10);
}
