/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the front stub and the upstream filter do with one query.
 */
#include <assert.h>
#include <errno.h>

#include "dns-answer.h"
#include "query-verdict.h"

int stub_verdict(const RefuseSet *refused, bool native, const uint8_t *query, size_t size, const char *nsid,
                 uint8_t **ret_answer, size_t *ret_answer_size) {
        DnsQueryInfo q;
        int r;

        assert(query || size == 0);
        assert(ret_answer);
        assert(ret_answer_size);

        r = dns_query_inspect(query, size, &q);
        if (r <= 0)
                return r < 0 ? r : VERDICT_RELAY;

        if (!native && refuse_set_contains(refused, q.qtype)) {
                r = dns_answer_refused(&q, nsid, ret_answer, ret_answer_size);
                dns_query_info_done(&q);
                return r < 0 ? r : VERDICT_ANSWER;
        }

        /* resolved 252's main stub bypasses itself only for DO plus CD; v258's does for DO alone, as
         * 252's 127.0.0.54 does. What it cannot read it answers with FORMERR itself. */
        r = q.edns_do && !q.malformed ? VERDICT_RELAY_DNSSEC : VERDICT_RELAY;
        dns_query_info_done(&q);
        return r;
}

int filter_verdict(const RefuseSet *refused, bool native, const uint8_t *query, size_t size,
                   DnsQueryInfo *ret_info, uint8_t **ret_answer, size_t *ret_answer_size) {
        DnsQueryInfo q;
        int r;

        assert(query || size == 0);
        assert(ret_info);
        assert(ret_answer);
        assert(ret_answer_size);

        *ret_info = (DnsQueryInfo) {};
        r = dns_query_inspect(query, size, &q);
        if (r < 0)
                return r;
        if (r == 0)
                return VERDICT_RELAY;

        if (!native && refuse_set_contains(refused, q.qtype)) {
                r = dns_answer_nodata(&q, ret_answer, ret_answer_size);
                dns_query_info_done(&q);
                return r < 0 ? r : VERDICT_ANSWER;
        }
        if (q.malformed) {
                dns_query_info_done(&q);
                return VERDICT_RELAY;
        }
        *ret_info = q;
        return VERDICT_RELAY;
}
