/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: a query packet as the front stub and the upstream filter judge it (query-verdict.c).
 * Input: the packet. The oracle checks what a client and resolved rely on: an answer we make is a
 * well-formed reply with the query's ID and question, REFUSED (stub) or NOERROR without records
 * (filter), no longer than the client can take; and a plain query for a listed type is never relayed,
 * whatever follows its question. */
#include <stdlib.h>
#include <string.h>

#include "dns-query.h"
#include "fuzz.h"
#include "macro.h"
#include "query-verdict.h"

/* A, TXT, MX, AAAA, SRV, HTTPS, ANY, and 65535. */
static const uint16_t listed[] = { 1, 16, 15, 28, 33, 65, 255, 65535 };

static void check_answer(const uint8_t *query, size_t size, const uint8_t *answer, size_t answer_size,
                         ldns_pkt_rcode rcode) {
        ldns_pkt *a = NULL;
        ldns_rr *aq, *qq = NULL;
        size_t pos = LDNS_HEADER_SIZE;
        bool listed_type = false;

        if (ldns_wire2pkt(&a, answer, answer_size) != LDNS_STATUS_OK)
                abort(); /* not a well-formed message */
        if (!ldns_pkt_qr(a) || ldns_pkt_get_rcode(a) != rcode || ldns_pkt_id(a) != LDNS_ID_WIRE(query))
                abort();
        if (ldns_pkt_qdcount(a) != 1 || ldns_pkt_ancount(a) != 0 || ldns_pkt_nscount(a) != 0)
                abort();
        if ((ldns_pkt_rd(a) != 0) != (LDNS_RD_WIRE(query) != 0) || (ldns_pkt_cd(a) != 0) != (LDNS_CD_WIRE(query) != 0))
                abort();

        /* The same question, byte for byte in its name (case kept). */
        if (ldns_wire2rr(&qq, query, size, &pos, LDNS_SECTION_QUESTION) != LDNS_STATUS_OK)
                abort();
        aq = ldns_rr_list_rr(ldns_pkt_question(a), 0);
        if (ldns_rr_get_type(aq) != ldns_rr_get_type(qq) || ldns_rr_get_class(aq) != ldns_rr_get_class(qq) ||
            ldns_rdf_size(ldns_rr_owner(aq)) != ldns_rdf_size(ldns_rr_owner(qq)) ||
            memcmp(ldns_rdf_data(ldns_rr_owner(aq)), ldns_rdf_data(ldns_rr_owner(qq)), ldns_rdf_size(ldns_rr_owner(qq))) != 0)
                abort();
        for (size_t i = 0; i < ELEMENTSOF(listed); i++)
                listed_type = listed_type || ldns_rr_get_type(qq) == listed[i];
        if (!listed_type)
                abort(); /* we answered a type nobody listed */

        /* No OPT in the query, none in the answer; and small enough for any client: a question and an
         * OPT (even with resolved's NSID) fit in the 512 bytes every client takes. */
        if (LDNS_ARCOUNT(query) == 0 && ldns_pkt_edns(a))
                abort();
        if (answer_size > 512)
                abort();
        ldns_rr_free(qq);
        ldns_pkt_free(a);
}

/* An OPT with an EDNS version other than 0 that ldns reads: resolved answers BADVERS before anything
 * else (v258 too), so relaying it leaks nothing. */
static bool has_other_edns_version(const uint8_t *query, size_t size, size_t pos) {
        for (unsigned i = 0; i < LDNS_ARCOUNT(query); i++) {
                ldns_rr *rr = NULL;
                bool other;

                if (ldns_wire2rr(&rr, query, size, &pos, LDNS_SECTION_ADDITIONAL) != LDNS_STATUS_OK)
                        return false;
                other = ldns_rr_get_type(rr) == LDNS_RR_TYPE_OPT && ((ldns_rr_ttl(rr) >> 16) & 0xff) != 0;
                ldns_rr_free(rr);
                if (other)
                        return true;
        }
        return false;
}

/* A plain query for a listed type: refused on its question alone, whatever the additional section holds
 * (even records resolved reads and ldns cannot: F6 of the security review of 2026-12-05). */
static bool must_be_answered(const uint8_t *query, size_t size) {
        ldns_rr *q = NULL;
        size_t pos = LDNS_HEADER_SIZE;
        uint16_t type;
        bool r = false;

        if (size < LDNS_HEADER_SIZE || LDNS_QR_WIRE(query) || LDNS_OPCODE_WIRE(query) != 0 || LDNS_TC_WIRE(query) ||
            LDNS_QDCOUNT(query) != 1 || LDNS_ANCOUNT(query) != 0 || LDNS_NSCOUNT(query) != 0)
                return false;
        if (ldns_wire2rr(&q, query, size, &pos, LDNS_SECTION_QUESTION) != LDNS_STATUS_OK)
                return false;
        type = (uint16_t) ldns_rr_get_type(q);
        for (size_t i = 0; i < ELEMENTSOF(listed); i++)
                r = r || type == listed[i];
        ldns_rr_free(q);
        return r && !has_other_edns_version(query, size, pos);
}

/* The filter reads upstream replies: whatever comes, a query is never taken for a reply. */
static void check_reply_inspection(const uint8_t *data, size_t size) {
        DnsReplyInfo r;

        if (dns_reply_inspect(data, size, &r) < 0)
                return;
        if (size < LDNS_HEADER_SIZE || !LDNS_QR_WIRE(data) || r.rcode < 0 || r.rcode > 4095)
                abort();
        dns_reply_info_done(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        RefuseSet refused;
        uint8_t *answer = NULL;
        size_t answer_size = 0;
        DnsQueryInfo info;
        int v;

        refuse_set_clear(&refused);
        for (size_t i = 0; i < ELEMENTSOF(listed); i++)
                refuse_set_add(&refused, listed[i]);

        v = stub_verdict(&refused, false, data, size, "0123456789abcdef0123456789abcdef.resolved.systemd.io",
                         &answer, &answer_size);
        if (v == VERDICT_ANSWER)
                check_answer(data, size, answer, answer_size, LDNS_RCODE_REFUSED);
        else if (v >= 0 && must_be_answered(data, size))
                abort(); /* a listed type went to resolved */
        free(answer);
        answer = NULL;

        /* systemd ≥ 258 refuses by itself: the stub only relays. */
        v = stub_verdict(&refused, true, data, size, NULL, &answer, &answer_size);
        if (v == VERDICT_ANSWER)
                abort();

        v = filter_verdict(&refused, false, data, size, &info, &answer, &answer_size);
        if (v == VERDICT_ANSWER)
                check_answer(data, size, answer, answer_size, LDNS_RCODE_NOERROR);
        else if (v >= 0 && must_be_answered(data, size))
                abort();
        dns_query_info_done(&info);
        free(answer);

        check_reply_inspection(data, size);
        return 0;
}
