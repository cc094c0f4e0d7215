/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The front stub: a DNS server on a loopback address of its own that /etc/resolv.conf points to.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "dns-answer.h"
#include "front-stub.h"
#include "list.h"
#include "log.h"
#include "macro.h"
#include "query-verdict.h"
#include "udp-exchange.h"

/* A stub client (glibc's resolver) gives up after a few seconds and asks again; what resolved says
 * later than this reaches nobody. */
#define STUB_UDP_TIMEOUT_USEC (30ULL * 1000000ULL)
#define STUB_UDP_RELAYS_MAX 2048U

/* The upstream connections of a TCP client: one to resolved, one to its DNSSEC bypass. */
enum {
        SLOT_RESOLVED,
        SLOT_RESOLVED_DNSSEC,
};

typedef struct UdpRelay UdpRelay;

typedef struct FrontStub {
        DnsServer *server;
        FrontStubSettings settings;
        UdpRelay *udp_relays;
        unsigned n_udp_relays;
} FrontStub;

/* One UDP query waiting for resolved. */
struct UdpRelay {
        FrontStub *stub;
        SocketAddress client;
        UdpExchange *exchange;
        UdpRelay *prev, *next;
};

static const SocketAddress *target(FrontStub *s, int verdict) {
        return verdict == VERDICT_RELAY_DNSSEC ? &s->settings.resolved_dnssec : &s->settings.resolved;
}

static void udp_relay_free(UdpRelay *u) {
        LIST_UNLINK(u->stub->udp_relays, u);
        u->stub->n_udp_relays--;
        udp_exchange_free(u->exchange);
        free(u);
}

static void on_udp_reply(UdpExchange *x, int error, const uint8_t *reply, size_t size, void *userdata) {
        UdpRelay *u = userdata;

        if (error < 0)
                log_debug_errno(error, "No answer from resolved for a relayed query: %m");
        else
                dns_server_send(u->stub->server, &u->client, reply, size);
        udp_relay_free(u);
}

static void on_udp_query(const SocketAddress *client, const uint8_t *msg, size_t size, void *userdata) {
        FrontStub *s = userdata;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        UdpRelay *u;
        int verdict, r;

        verdict = stub_verdict(dns_server_refused(s->server), s->settings.native, msg, size, dns_answer_resolved_nsid(),
                               &answer, &answer_size);
        if (verdict < 0)
                return;
        if (verdict == VERDICT_ANSWER) {
                dns_server_send(s->server, client, answer, answer_size);
                return;
        }

        if (s->n_udp_relays >= STUB_UDP_RELAYS_MAX) {
                log_debug("Too many queries waiting for resolved, dropping one.");
                return;
        }
        u = calloc(1, sizeof(UdpRelay));
        if (!u)
                return;
        *u = (UdpRelay) { .stub = s, .client = *client };
        r = udp_exchange_start(dns_server_event(s->server), target(s, verdict), msg, size, STUB_UDP_TIMEOUT_USEC,
                               on_udp_reply, u, &u->exchange);
        if (r < 0) {
                log_debug_errno(r, "Failed to relay a query to resolved: %m");
                free(u);
                return;
        }
        LIST_LINK(s->udp_relays, u);
        s->n_udp_relays++;
}

static int on_tcp_query(TcpClient *c, const uint8_t *msg, size_t size, void *userdata) {
        FrontStub *s = userdata;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        int verdict, r;

        verdict = stub_verdict(dns_server_refused(s->server), s->settings.native, msg, size, dns_answer_resolved_nsid(),
                               &answer, &answer_size);
        if (verdict < 0)
                return 0; /* no memory: drop the query, the client asks again */
        if (verdict == VERDICT_ANSWER)
                return tcp_client_reply(c, answer, answer_size);

        r = tcp_client_relay(c, verdict == VERDICT_RELAY_DNSSEC ? SLOT_RESOLVED_DNSSEC : SLOT_RESOLVED,
                             target(s, verdict), msg, size);
        if (r < 0)
                return log_debug_errno(r, "Failed to relay a query to resolved over TCP: %m");
        return 0;
}

/* resolved's answers go back byte for byte, in the order they come. */
static int on_resolved_message(TcpClient *c, const uint8_t *msg, size_t size, void *userdata) {
        return tcp_client_reply(c, msg, size);
}

static void front_stub_free(void *userdata) {
        FrontStub *s = userdata;

        while (s->udp_relays)
                udp_relay_free(s->udp_relays);
        free(s);
}

static const DnsServerHandler front_stub_handler = {
        .udp_query = on_udp_query,
        .tcp_query = on_tcp_query,
        .upstream_message = on_resolved_message,
        .free_userdata = front_stub_free,
};

int front_stub_start(DnsServer *server, const FrontStubSettings *settings) {
        FrontStub *s;

        assert(server);
        assert(settings);

        s = calloc(1, sizeof(FrontStub));
        if (!s)
                return -ENOMEM;
        s->server = server;
        s->settings = *settings;
        return dns_server_start(server, &front_stub_handler, s);
}
