/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The upstream filter: the DNS server resolved 252 uses (its only DNS=), forwarding to the real ones.
 *
 * Queries for a type listed in RefuseRecordTypes= get NOERROR/NODATA without an SOA (nothing gets
 * cached; REFUSED would make 252 try the next server). Everything else goes to the first upstream
 * server that answers (a resend of a pending query tries the next one), and the answer comes back
 * unchanged. On top of that the sibling rule (sibling-timer.h): once A or AAAA for a name has a
 * NOERROR answer, the other one gets NODATA if its own answer has not come 6 s later. That turns 252's
 * AF_UNSPEC lookups against a server that drops AAAA into an IPv4 answer after about 6 s instead of a
 * failure after 120 s.
 */
#pragma once

#include <stdbool.h>

#include "dns-server.h"

/** The default address, next to the front stub's. */
#define UPSTREAM_FILTER_ADDRESS "127.0.0.154"

/** How long an upstream server may take: longer than 252's 5 s between resends, so a resend finds
 * the query still pending. */
#define UPSTREAM_TIMEOUT_USEC (10ULL * 1000000ULL)

typedef struct UpstreamFilterSettings {
        SocketAddress *upstreams;       /**< the real servers, in order of preference */
        unsigned n_upstreams;
        bool native;                    /**< systemd ≥ 258: forward everything, no NODATA of our own */
} UpstreamFilterSettings;

/**
 * Serve as the upstream filter; the filter's state goes with the server (dns_server_free()).
 * @ret 0, -EINVAL without upstream servers, or another negative errno
 */
int upstream_filter_start(DnsServer *server, const UpstreamFilterSettings *settings);
