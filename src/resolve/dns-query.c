/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Judging an incoming DNS query the way v258's stub does before it resolves anything.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dns-query.h"
#include "macro.h"

#define DNS_PACKET_SIZE_MAX 65535U
#define DNS_UNICAST_SIZE_MAX 512U
#define EDNS_OPTION_NSID 3

/* dns_type_is_valid_query(): the types resolved refuses to ask for. */
static bool type_is_valid_question(uint16_t t) {
        return t != 0 && t != LDNS_RR_TYPE_OPT && t != LDNS_RR_TYPE_TSIG && t != 249 /* TKEY */ &&
               t != LDNS_RR_TYPE_RRSIG;
}

static bool header_is_plain_query(const uint8_t *wire, size_t size) {
        return size >= LDNS_HEADER_SIZE && size <= DNS_PACKET_SIZE_MAX && !LDNS_QR_WIRE(wire) &&
               LDNS_OPCODE_WIRE(wire) == 0 && !LDNS_TC_WIRE(wire) && LDNS_QDCOUNT(wire) == 1 &&
               LDNS_ANCOUNT(wire) == 0 && LDNS_NSCOUNT(wire) == 0;
}

/* The OPT's TTL field holds extended rcode, version and flags. */
static uint8_t opt_version(const ldns_rr *opt) {
        return (uint8_t) (ldns_rr_ttl(opt) >> 16);
}

/* The raw option bytes of an OPT record, as ldns read them. */
static const uint8_t *opt_options(const ldns_rr *opt, size_t *ret_size) {
        const ldns_rdf *rd = ldns_rr_rd_count(opt) > 0 ? ldns_rr_rdf(opt, 0) : NULL;

        *ret_size = rd ? ldns_rdf_size(rd) : 0;
        return rd ? ldns_rdf_data(rd) : NULL;
}

/* opt_is_good(): options must tile the data exactly (only checked for version 0). */
static bool opt_is_good(const ldns_rr *opt) {
        const uint8_t *p;
        size_t l;

        if (opt_version(opt) != 0)
                return true;
        p = opt_options(opt, &l);
        while (l > 0) {
                size_t len;

                if (l < 4)
                        return false;
                len = ldns_read_uint16(p + 2);
                if (l < len + 4)
                        return false;
                p += len + 4;
                l -= len + 4;
        }
        return true;
}

/* dns_packet_has_nsid_request(): one NSID option, and empty. */
static bool opt_requests_nsid(const ldns_rr *opt) {
        bool found = false;
        const uint8_t *p;
        size_t l;

        p = opt_options(opt, &l);
        while (l >= 4) {
                uint16_t code = ldns_read_uint16(p), len = ldns_read_uint16(p + 2);

                if (l < 4U + len)
                        return false;
                if (code == EDNS_OPTION_NSID) {
                        if (found || len != 0)
                                return false;
                        found = true;
                }
                p += 4U + len;
                l -= 4U + len;
        }
        return l == 0 && found;
}

static bool owner_is_root(const ldns_rr *rr) {
        const ldns_rdf *o = ldns_rr_owner(rr);

        return o && ldns_rdf_size(o) == 1 && ldns_rdf_data(o)[0] == 0;
}

/*
 * A record ldns cannot read, skipped as resolved keeps the rdata of types it does not parse: as opaque
 * bytes (dns_packet_read_rr()'s default case), as long as owner, fixed fields and rdlength fit. An OPT is
 * never opaque. -EBADMSG when it does not fit.
 */
static int skip_opaque_record(const uint8_t *wire, size_t size, size_t *pos) {
        ldns_rdf *owner = NULL;
        size_t p = *pos;
        uint16_t rdlength;

        if (ldns_wire2dname(&owner, wire, size, &p) != LDNS_STATUS_OK)
                return -EBADMSG;
        ldns_rdf_deep_free(owner);
        if (size - p < 10 || ldns_read_uint16(wire + p) == LDNS_RR_TYPE_OPT)
                return -EBADMSG;
        rdlength = ldns_read_uint16(wire + p + 8);
        p += 10;
        if (size - p < rdlength)
                return -EBADMSG;
        *pos = p + rdlength;
        return 0;
}

/* Walks the additional section as dns_packet_extract_answer() does. Returns the OPT that counts
 * (owned; NULL when none counts), or -EBADMSG when a record cannot be read even as opaque data. */
static int read_additional(const uint8_t *wire, size_t size, size_t *pos, ldns_rr **ret_opt) {
        unsigned n = LDNS_ARCOUNT(wire);
        ldns_rr *opt = NULL;
        bool bad_opt = false;

        for (unsigned i = 0; i < n; i++) {
                ldns_rr *rr = NULL;

                /* More records declared than present: resolved accepts that once it has an OPT, but
                 * then distrusts the OPT. */
                if (*pos == size && opt) {
                        bad_opt = true;
                        break;
                }
                size_t start = *pos;

                if (ldns_wire2rr(&rr, wire, size, pos, LDNS_SECTION_ADDITIONAL) != LDNS_STATUS_OK) {
                        *pos = start; /* ldns may have read part of it */
                        if (skip_opaque_record(wire, size, pos) >= 0)
                                continue;
                        ldns_rr_free(opt);
                        return -EBADMSG;
                }
                if (ldns_rr_get_type(rr) != LDNS_RR_TYPE_OPT) {
                        ldns_rr_free(rr);
                        continue;
                }
                if (opt || bad_opt || !owner_is_root(rr) || !opt_is_good(rr))
                        bad_opt = true;
                else {
                        opt = rr;
                        continue;
                }
                ldns_rr_free(rr);
        }

        if (bad_opt || *pos < size) { /* trailing garbage also makes resolved drop the OPT */
                ldns_rr_free(opt);
                opt = NULL;
        }
        *ret_opt = opt;
        return 0;
}

int dns_query_inspect(const uint8_t *wire, size_t size, DnsQueryInfo *ret) {
        ldns_rr *question = NULL, *opt = NULL;
        size_t pos = LDNS_HEADER_SIZE;
        bool malformed;
        uint16_t qtype;

        assert(wire || size == 0);
        assert(ret);

        if (!header_is_plain_query(wire, size))
                return 0;

        if (ldns_wire2rr(&question, wire, size, &pos, LDNS_SECTION_QUESTION) != LDNS_STATUS_OK)
                return 0;
        qtype = (uint16_t) ldns_rr_get_type(question);
        if (!type_is_valid_question(qtype)) {
                ldns_rr_free(question);
                return 0;
        }
        /* resolved answers FORMERR for what cannot be read at all; the question is known anyway, and a
         * refused type is refused whatever follows it (F6 of the security review of 2026-12-05). */
        malformed = read_additional(wire, size, &pos, &opt) < 0;
        if (opt && opt_version(opt) != 0) { /* BADVERS is resolved's answer, not ours */
                ldns_rr_free(question);
                ldns_rr_free(opt);
                return 0;
        }

        *ret = (DnsQueryInfo) {
                .id = LDNS_ID_WIRE(wire),
                .rd = LDNS_RD_WIRE(wire) != 0,
                .cd = LDNS_CD_WIRE(wire) != 0,
                .question = question,
                .qtype = qtype,
                .qclass = (uint16_t) ldns_rr_get_class(question),
                .has_opt = opt != NULL,
                .edns_do = opt && (ldns_rr_ttl(opt) & 0x8000) != 0,
                /* An OPT's class is the size the client can take. */
                .udp_size = opt ? MAX((uint16_t) ldns_rr_get_class(opt), DNS_UNICAST_SIZE_MAX) : DNS_UNICAST_SIZE_MAX,
                .nsid_requested = opt && opt_requests_nsid(opt),
                .malformed = malformed,
        };
        ldns_rr_free(opt);
        return 1;
}

void dns_query_info_done(DnsQueryInfo *q) {
        assert(q);

        ldns_rr_free(q->question);
        q->question = NULL;
}

static char *question_key(const ldns_rr *question) {
        ldns_rdf *name = ldns_rdf_clone(ldns_rr_owner(question));
        char *s, *key = NULL;

        if (!name)
                return NULL;
        ldns_dname2canonical(name);
        s = ldns_rdf2str(name);
        ldns_rdf_deep_free(name);
        if (!s)
                return NULL;
        if (asprintf(&key, "%s/%u", s, (unsigned) ldns_rr_get_class(question)) < 0)
                key = NULL;
        free(s);
        return key;
}

char *dns_query_info_key(const DnsQueryInfo *q) {
        assert(q);

        return question_key(q->question);
}

/* Reads one record of a reply; NULL when it cannot be read. */
static ldns_rr *read_rr(const uint8_t *wire, size_t size, size_t *pos, ldns_pkt_section section) {
        ldns_rr *rr = NULL;

        if (ldns_wire2rr(&rr, wire, size, pos, section) != LDNS_STATUS_OK)
                return NULL;
        return rr;
}

/* Walks the reply's sections record by record with ldns_wire2rr(), not ldns_wire2pkt(): ldns 1.8.3's
 * packet parser leaks a TSIG record it has set aside when a later record fails to parse, and these
 * bytes come from the network. */
int dns_reply_inspect(const uint8_t *wire, size_t size, DnsReplyInfo *ret) {
        static const ldns_pkt_section sections[] = { LDNS_SECTION_ANSWER, LDNS_SECTION_AUTHORITY,
                                                     LDNS_SECTION_ADDITIONAL };
        size_t pos = LDNS_HEADER_SIZE;
        uint32_t ttl = UINT32_MAX;
        ldns_rr *question = NULL;
        int rcode;

        assert(wire || size == 0);
        assert(ret);

        if (size < LDNS_HEADER_SIZE || !LDNS_QR_WIRE(wire))
                return -EBADMSG;
        rcode = LDNS_RCODE_WIRE(wire);

        for (unsigned i = 0; i < LDNS_QDCOUNT(wire); i++) {
                ldns_rr *q = read_rr(wire, size, &pos, LDNS_SECTION_QUESTION);

                if (!q) {
                        ldns_rr_free(question);
                        return -EBADMSG;
                }
                if (question)
                        ldns_rr_free(q);
                else
                        question = q;
        }

        for (size_t s = 0; s < ELEMENTSOF(sections); s++) {
                unsigned n = s == 0 ? LDNS_ANCOUNT(wire) : s == 1 ? LDNS_NSCOUNT(wire) : LDNS_ARCOUNT(wire);

                for (unsigned i = 0; i < n; i++) {
                        ldns_rr *rr = read_rr(wire, size, &pos, sections[s]);

                        if (!rr) {
                                ldns_rr_free(question);
                                return -EBADMSG;
                        }
                        if (sections[s] != LDNS_SECTION_ADDITIONAL)
                                ttl = MIN(ttl, ldns_rr_ttl(rr));
                        else if (ldns_rr_get_type(rr) == LDNS_RR_TYPE_OPT)
                                /* The OPT's TTL field starts with the upper 8 bits of the rcode. */
                                rcode |= (int) (ldns_rr_ttl(rr) >> 24) << 4;
                        ldns_rr_free(rr);
                }
        }

        *ret = (DnsReplyInfo) {
                .id = LDNS_ID_WIRE(wire),
                .rcode = rcode,
                .truncated = LDNS_TC_WIRE(wire) != 0,
                .ttl = ttl == UINT32_MAX ? 0 : ttl,
                .question = question,
        };
        return 0;
}

void dns_reply_info_done(DnsReplyInfo *r) {
        assert(r);

        ldns_rr_free(r->question);
        r->question = NULL;
}

bool dns_reply_answers(const DnsReplyInfo *r, const DnsQueryInfo *q) {
        assert(r);
        assert(q);

        return r->question && ldns_rr_get_type(r->question) == q->qtype &&
               ldns_rr_get_class(r->question) == q->qclass &&
               ldns_dname_compare(ldns_rr_owner(r->question), ldns_rr_owner(q->question)) == 0;
}
