/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The front stub's judgement of queries and the answers it makes, against the golden packets of
 * test/data/resolve/stub-packets.tsv (REFUSED as v258's stub sends it, NODATA as the filter does). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dns-answer.h"
#include "dns-query.h"
#include "macro.h"
#include "string-util.h"
#include "tests.h"

#define TEST_NSID "0123456789abcdef0123456789abcdef.resolved.systemd.io"

static size_t unhex(const char *s, uint8_t *buf, size_t max) {
        size_t n = 0;

        for (; s[0] && s[1]; s += 2) {
                ASSERT_TRUE(n < max);
                ASSERT_TRUE(unhexchar(s[0]) >= 0 && unhexchar(s[1]) >= 0);
                buf[n++] = (uint8_t) (unhexchar(s[0]) << 4 | unhexchar(s[1]));
        }
        ASSERT_TRUE(!s[0]);
        return n;
}

static char *tohex(const uint8_t *p, size_t n) {
        char *s = malloc(n * 2 + 1);

        ASSERT_TRUE(s);
        for (size_t i = 0; i < n; i++)
                sprintf(s + 2 * i, "%02x", p[i]);
        s[n * 2] = 0;
        return s;
}

static void check_packet(const char *name, const char *what, const uint8_t *got, size_t size, const char *want) {
        _cleanup_free_ char *hex = tohex(got, size);

        if (!streq(hex, want))
                test_fail(__FILE__, __LINE__, "%s: %s\n#   got  %s\n#   want %s", name, what, hex, want);
}

static void on_packet_case(char *line, int lineno, void *userdata) {
        char *f[5];
        uint8_t query[4096];
        size_t size;
        DnsQueryInfo q;
        int r, *count = userdata;

        ASSERT_EQ(test_split_fields(line, f, 5), 5);
        size = unhex(f[1], query, sizeof query);
        r = dns_query_inspect(query, size, &q);
        ASSERT_OK(r);

        if (streq(f[2], "relay")) {
                if (r != 0)
                        test_fail(__FILE__, __LINE__, "%s: judged a query although resolved would not", f[0]);
                (*count)++;
                return;
        }
        if (r != 1)
                test_fail(__FILE__, __LINE__, "%s: not judged a query", f[0]);
        ASSERT_EQ(q.qtype == 28 || q.qtype == 16 || q.qtype == 65, streq(f[2], "refuse") || streq(f[2], "refuse-question"));
        if (q.malformed != streq(f[2], "refuse-question"))
                test_fail(__FILE__, __LINE__, "%s: malformed %d", f[0], q.malformed);

        {
                _cleanup_free_ uint8_t *refused = NULL, *nodata = NULL;
                size_t n;

                ASSERT_OK(dns_answer_refused(&q, TEST_NSID, &refused, &n));
                check_packet(f[0], "REFUSED", refused, n, f[3]);
                ASSERT_OK(dns_answer_nodata(&q, &nodata, &n));
                check_packet(f[0], "NODATA", nodata, n, f[4]);
        }
        dns_query_info_done(&q);
        (*count)++;
}

TEST(golden_packets) {
        int count = 0;

        ASSERT_TRUE(test_foreach_line("resolve/stub-packets.tsv", on_packet_case, &count) >= 30);
        test_note("%d packets", count);
}

TEST(no_nsid_without_machine_id_string) {
        static const uint8_t query[] = { 0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
                                         0x01, 'x', 0x00, 0x00, 0x1c, 0x00, 0x01,
                                         0x00, 0x00, 0x29, 0x04, 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
                                         0x00, 0x03, 0x00, 0x00 };
        _cleanup_free_ uint8_t *reply = NULL;
        DnsQueryInfo q;
        size_t n;

        ASSERT_EQ(dns_query_inspect(query, sizeof query, &q), 1);
        ASSERT_TRUE(q.nsid_requested);
        ASSERT_OK(dns_answer_refused(&q, NULL, &reply, &n));
        /* Header, question (1 + 1 + 1 + 4), OPT without options. */
        ASSERT_EQ(n, 12 + 7 + 11);
        dns_query_info_done(&q);
}

TEST(reply_inspection) {
        /* A reply for x/AAAA: NOERROR, one AAAA record with TTL 300. */
        static const uint8_t reply[] = { 0x12, 0x34, 0x81, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
                                         0x01, 'X', 0x00, 0x00, 0x1c, 0x00, 0x01,
                                         0xc0, 0x0c, 0x00, 0x1c, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x10,
                                         0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
        static const uint8_t query[] = { 0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                         0x01, 'x', 0x00, 0x00, 0x1c, 0x00, 0x01 };
        _cleanup_free_ char *key = NULL;
        DnsReplyInfo r;
        DnsQueryInfo q;

        ASSERT_OK(dns_reply_inspect(reply, sizeof reply, &r));
        ASSERT_EQ(r.id, 0x1234);
        ASSERT_EQ(r.rcode, 0);
        ASSERT_EQ(r.ttl, 300);
        ASSERT_EQ(dns_query_inspect(query, sizeof query, &q), 1);
        ASSERT_TRUE(dns_reply_answers(&r, &q));
        key = dns_query_info_key(&q);
        ASSERT_STREQ(key, "x./1");
        dns_query_info_done(&q);
        dns_reply_info_done(&r);

        ASSERT_EQ(dns_reply_inspect(query, sizeof query, &r), -EBADMSG); /* a query is no reply */
        ASSERT_EQ(dns_reply_inspect(reply, 11, &r), -EBADMSG);
}
