/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The answers the companion makes itself.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-id128.h>

#include "dns-answer.h"
#include "macro.h"

#define EDNS_OPTION_NSID 3

/* The header and question every made-up answer shares; the OPT only when the client sent one. */
static ldns_pkt *answer_new(const DnsQueryInfo *q, ldns_pkt_rcode rcode, uint16_t udp_size) {
        ldns_pkt *p = ldns_pkt_new();
        ldns_rr *question;

        if (!p)
                return NULL;
        question = ldns_rr_clone(q->question);
        if (!question || !ldns_pkt_push_rr(p, LDNS_SECTION_QUESTION, question)) {
                ldns_rr_free(question);
                ldns_pkt_free(p);
                return NULL;
        }

        ldns_pkt_set_id(p, q->id);
        ldns_pkt_set_qr(p, true);
        ldns_pkt_set_opcode(p, LDNS_PACKET_QUERY);
        ldns_pkt_set_rd(p, q->rd);
        ldns_pkt_set_ra(p, true);
        ldns_pkt_set_cd(p, q->cd);
        ldns_pkt_set_rcode(p, (uint8_t) rcode);

        if (q->has_opt) {
                ldns_pkt_set_edns_udp_size(p, udp_size);
                ldns_pkt_set_edns_version(p, 0);
                ldns_pkt_set_edns_extended_rcode(p, 0);
                ldns_pkt_set_edns_do(p, q->edns_do);
        }
        return p;
}

static int answer_to_wire(ldns_pkt *p, bool with_opt, uint8_t **ret, size_t *ret_size) {
        uint8_t *wire = NULL;
        size_t size = 0;
        ldns_status s;

        /* ldns writes an OPT when any EDNS field is set; a client without EDNS gets none. */
        if (!with_opt && ldns_pkt_edns(p))
                return -EINVAL;
        s = ldns_pkt2wire(&wire, p, &size);
        if (s != LDNS_STATUS_OK)
                return s == LDNS_STATUS_MEM_ERR ? -ENOMEM : -EINVAL;
        *ret = wire;
        *ret_size = size;
        return 0;
}

static int add_nsid(ldns_pkt *p, const char *nsid) {
        ldns_edns_option_list *list = ldns_edns_option_list_new();
        ldns_edns_option *o;

        if (!list)
                return -ENOMEM;
        o = ldns_edns_new_from_data(EDNS_OPTION_NSID, strlen(nsid), nsid);
        if (!o || !ldns_edns_option_list_push(list, o)) {
                if (o)
                        ldns_edns_deep_free(o);
                ldns_edns_option_list_deep_free(list);
                return -ENOMEM;
        }
        ldns_pkt_set_edns_option_list(p, list);
        return 0;
}

int dns_answer_refused(const DnsQueryInfo *q, const char *nsid, uint8_t **ret, size_t *ret_size) {
        ldns_pkt *p = answer_new(q, LDNS_RCODE_REFUSED, STUB_ADVERTISE_DATAGRAM_SIZE_MAX);
        int r;

        assert(q);
        assert(ret);
        assert(ret_size);

        if (!p)
                return -ENOMEM;
        if (q->has_opt && q->nsid_requested && nsid) {
                r = add_nsid(p, nsid);
                if (r < 0) {
                        ldns_pkt_free(p);
                        return r;
                }
        }
        r = answer_to_wire(p, q->has_opt, ret, ret_size);
        ldns_pkt_free(p);
        return r;
}

int dns_answer_nodata(const DnsQueryInfo *q, uint8_t **ret, size_t *ret_size) {
        ldns_pkt *p = answer_new(q, LDNS_RCODE_NOERROR, FILTER_ADVERTISE_DATAGRAM_SIZE);
        int r;

        assert(q);
        assert(ret);
        assert(ret_size);

        if (!p)
                return -ENOMEM;
        r = answer_to_wire(p, q->has_opt, ret, ret_size);
        ldns_pkt_free(p);
        return r;
}

const char *dns_answer_resolved_nsid(void) {
        /* v258's key for the app-specific machine ID behind the NSID. */
        static const sd_id128_t app = SD_ID128_MAKE(ed, d3, 12, 5d, 16, b9, 41, f9, a1, 49, 5f, ab, 15, 62, ab, 27);
        static char buffer[SD_ID128_STRING_MAX + sizeof(".resolved.systemd.io")];
        char hex[SD_ID128_STRING_MAX];
        sd_id128_t id;

        if (buffer[0])
                return buffer;
        if (sd_id128_get_machine_app_specific(app, &id) < 0)
                return NULL;
        (void) snprintf(buffer, sizeof(buffer), "%s.resolved.systemd.io", sd_id128_to_string(id, hex));
        return buffer;
}
