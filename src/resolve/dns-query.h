/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Judging an incoming DNS query the way v258's stub does before it resolves anything.
 *
 * resolved drops packets that are not queries of the plain kind (QR, opcode, TC, one question, no
 * answer or authority records), answers FORMERR when the question or a record cannot be read or
 * asks for a type that is not a valid question (0, OPT, TKEY, TSIG, RRSIG), and BADVERS for an EDNS
 * version other than 0. Only a query that passes all of that reaches the RefuseRecordTypes= check.
 * Its OPT record counts as the client's EDNS only under resolved's rules: exactly one, owned by the
 * root, well-formed options, no trailing garbage after the last record.
 *
 * Parsing is ldns's (ldns_wire2rr); this file only walks the sections and applies those rules.
 */
#pragma once

/* Before ldns: without it ldns makes "bool" an unsigned char of its own. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ldns/ldns.h>

typedef struct DnsQueryInfo {
        uint16_t id;
        bool rd, cd;
        ldns_rr *question;      /**< the one question (owned) */
        uint16_t qtype, qclass;
        bool has_opt;           /**< the client sent EDNS, as resolved counts it */
        bool edns_do;           /**< the DO bit of that OPT */
        uint16_t udp_size;      /**< the client's advertised size (512 without EDNS) */
        bool nsid_requested;    /**< exactly one empty NSID option */
        bool malformed;         /**< a record after the question cannot be read (resolved: FORMERR) */
} DnsQueryInfo;

/**
 * Inspect a query received by a stub.
 *
 * @v wire     the packet (without the TCP length prefix)
 * Records after the question that ldns cannot read count as resolved counts them: opaque data when
 * they fit, else the query is marked malformed (resolved's FORMERR) but still returned, so that a
 * refused type is refused on its question alone.
 * @ret        1: a query with a question resolved would ask (*ret filled, free with dns_query_info_done());
 *             0: one resolved drops or answers with an error of its own (relay it unchanged);
 *             -ENOMEM
 */
int dns_query_inspect(const uint8_t *wire, size_t size, DnsQueryInfo *ret);

void dns_query_info_done(DnsQueryInfo *q);

/**
 * The question's name in lower case with its class, as a string key ("example.com./1"): names
 * compare case-insensitively in DNS.
 */
char *dns_query_info_key(const DnsQueryInfo *q);

typedef struct DnsReplyInfo {
        uint16_t id;
        int rcode;              /**< with the EDNS extended bits */
        bool truncated;
        uint32_t ttl;           /**< the smallest TTL in the answer and authority sections, 0 if none */
        ldns_rr *question;      /**< the first question, if any (owned) */
} DnsReplyInfo;

/**
 * Read what the filter needs from an upstream reply.
 *
 * @ret   0, -EBADMSG when it does not parse or is not a reply, -ENOMEM
 */
int dns_reply_inspect(const uint8_t *wire, size_t size, DnsReplyInfo *ret);

void dns_reply_info_done(DnsReplyInfo *r);

/** True if the reply's question is the query's (same type, class and name, case-insensitively). */
bool dns_reply_answers(const DnsReplyInfo *r, const DnsQueryInfo *q);
