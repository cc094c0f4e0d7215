/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The answers the companion makes itself.
 *
 * REFUSED is what v258's stub sends for a refused type (dns_stub_send_failure()): the ID, RD and CD
 * of the query, QR and RA set, AA, TC and AD clear; the question echoed; nothing in the answer,
 * authority or additional sections; an OPT record only when the client sent one, advertising
 * 65494 bytes (loopback's MTU less the headers) with the client's DO bit, and resolved's NSID when
 * the client asked for it.
 *
 * NODATA (NOERROR, no records, no SOA so nothing gets cached) is what the upstream filter tells
 * resolved 252 instead: REFUSED would make 252 try the next server.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "dns-query.h"

/** The UDP size v258's main stub advertises: 65536 less Ethernet, IPv4 and UDP headers. */
#define STUB_ADVERTISE_DATAGRAM_SIZE_MAX (65536U - 14U - 20U - 8U)

/** The UDP size the filter advertises to resolved (the DNS flag day's safe value). */
#define FILTER_ADVERTISE_DATAGRAM_SIZE 1232U

/**
 * Build the REFUSED reply.
 *
 * @v nsid     resolved's NSID string to return when the query asks for one (NULL: never)
 * @v ret      the packet (free())
 * @ret        0 or -ENOMEM
 */
int dns_answer_refused(const DnsQueryInfo *q, const char *nsid, uint8_t **ret, size_t *ret_size);

/** Build the NOERROR/NODATA reply of the upstream filter. */
int dns_answer_nodata(const DnsQueryInfo *q, uint8_t **ret, size_t *ret_size);

/**
 * resolved's NSID for this machine: an app-specific ID derived from the machine ID, as
 * "<32 hex digits>.resolved.systemd.io" (v258's nsid_string()).
 *
 * @ret the string (static buffer), or NULL when there is no machine ID
 */
const char *dns_answer_resolved_nsid(void);
