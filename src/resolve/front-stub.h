/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The front stub: a DNS server on a loopback address of its own that /etc/resolv.conf points to.
 *
 * Queries for a type listed in RefuseRecordTypes= get v258's REFUSED answer; every other packet is
 * relayed byte for byte to resolved 252's stub (127.0.0.53, or 127.0.0.54 for queries with DO, where
 * 252 bypasses itself as v258's main stub does) and its answer comes back byte for byte: over UDP
 * on a socket per query, over TCP on a connection per client connection, truncation untouched.
 */
#pragma once

#include <stdbool.h>

#include "dns-server.h"

/** The default address: 127.0.0.53 and .54 are resolved's; .153 is free and easy to remember. */
#define FRONT_STUB_ADDRESS "127.0.0.153"

typedef struct FrontStubSettings {
        SocketAddress resolved;         /**< where queries go (127.0.0.53:53) */
        SocketAddress resolved_dnssec;  /**< where queries with DO go (127.0.0.54:53) */
        bool native;                    /**< systemd ≥ 258 refuses by itself: relay everything */
} FrontStubSettings;

/**
 * Serve as the front stub; the stub's state goes with the server (dns_server_free()).
 * @ret 0 or negative errno
 */
int front_stub_start(DnsServer *server, const FrontStubSettings *settings);
