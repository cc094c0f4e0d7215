/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The front stub: a DNS server on a loopback address of its own that /etc/resolv.conf points to.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dns-answer.h"
#include "dns-stream.h"
#include "front-stub.h"
#include "list.h"
#include "log.h"
#include "macro.h"
#include "query-verdict.h"
#include "udp-exchange.h"

/* A stub client (glibc's resolver) gives up after a few seconds and asks again; what resolved says
 * later than this reaches nobody. */
#define STUB_UDP_TIMEOUT_USEC (30ULL * 1000000ULL)
/* resolved closes idle stub connections after 10 s (DNS_STREAM_STUB_TIMEOUT_USEC); so do we. */
#define STUB_TCP_IDLE_USEC (10ULL * 1000000ULL)
#define STUB_UDP_RELAYS_MAX 2048U
#define STUB_TCP_CONNECTIONS_MAX 256U
/* No one address may hold more than a quarter of the table; anyone may bind 127.x.y.z, so this alone
 * does not keep a local client out: when full, the connection that did least for longest goes. */
#define STUB_TCP_PER_SOURCE_MAX (STUB_TCP_CONNECTIONS_MAX / 4U)

typedef struct UdpRelay UdpRelay;
typedef struct TcpRelay TcpRelay;

struct FrontStub {
        sd_event *event;
        Listeners listeners;
        sd_event_source *udp_source, *tcp_source;
        FrontStubSettings settings;
        RefuseSet refused;
        UdpRelay *udp_relays;
        unsigned n_udp_relays;
        TcpRelay *tcp_relays;
        unsigned n_tcp_relays;
};

/* One UDP query waiting for resolved. */
struct UdpRelay {
        FrontStub *stub;
        SocketAddress client;
        UdpExchange *exchange;
        UdpRelay *prev, *next;
};

/* One client connection and the connections to resolved it needs. */
struct TcpRelay {
        FrontStub *stub;
        SocketAddress peer;
        DnsStream *client;
        DnsStream *upstream[2]; /* [0] resolved, [1] its DNSSEC bypass */
        TcpRelay *prev, *next;
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

static void send_to_client(FrontStub *s, const SocketAddress *client, const uint8_t *p, size_t n) {
        if (sendto(s->listeners.udp_fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL, &client->sa, client->len) < 0)
                log_debug_errno(errno, "Failed to send an answer to a client: %m");
}

static void on_udp_reply(UdpExchange *x, int error, const uint8_t *reply, size_t size, void *userdata) {
        UdpRelay *u = userdata;

        if (error < 0)
                log_debug_errno(error, "No answer from resolved for a relayed query: %m");
        else
                send_to_client(u->stub, &u->client, reply, size);
        udp_relay_free(u);
}

static int on_udp_query(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        static uint8_t buf[65536];
        FrontStub *s = userdata;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        SocketAddress client = { .len = sizeof(client.in6) };
        UdpRelay *u;
        ssize_t n;
        int verdict, r;

        n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, &client.sa, &client.len);
        if (n < 0)
                return 0;

        verdict = stub_verdict(&s->refused, s->settings.native, buf, (size_t) n, dns_answer_resolved_nsid(),
                               &answer, &answer_size);
        if (verdict < 0)
                return 0;
        if (verdict == VERDICT_ANSWER) {
                send_to_client(s, &client, answer, answer_size);
                return 0;
        }

        if (s->n_udp_relays >= STUB_UDP_RELAYS_MAX) {
                log_debug("Too many queries waiting for resolved, dropping one.");
                return 0;
        }
        u = calloc(1, sizeof(UdpRelay));
        if (!u)
                return 0;
        *u = (UdpRelay) { .stub = s, .client = client };
        r = udp_exchange_start(s->event, target(s, verdict), buf, (size_t) n, STUB_UDP_TIMEOUT_USEC, on_udp_reply, u,
                               &u->exchange);
        if (r < 0) {
                log_debug_errno(r, "Failed to relay a query to resolved: %m");
                free(u);
                return 0;
        }
        LIST_LINK(s->udp_relays, u);
        s->n_udp_relays++;
        return 0;
}

static void tcp_relay_free(TcpRelay *t) {
        LIST_UNLINK(t->stub->tcp_relays, t);
        t->stub->n_tcp_relays--;
        dns_stream_close(t->client);
        dns_stream_close(t->upstream[0]);
        dns_stream_close(t->upstream[1]);
        free(t);
}

static void on_upstream_message(DnsStream *stream, const uint8_t *msg, size_t size, void *userdata) {
        TcpRelay *t = userdata;

        if (dns_stream_write(t->client, msg, size) < 0)
                tcp_relay_free(t);
}

static void on_upstream_closed(DnsStream *stream, int error, void *userdata) {
        TcpRelay *t = userdata;

        /* The stream is gone already: forget it before closing the rest. */
        if (t->upstream[0] == stream)
                t->upstream[0] = NULL;
        else
                t->upstream[1] = NULL;
        if (error < 0)
                log_debug_errno(error, "Connection to resolved failed: %m");
        tcp_relay_free(t);
}

static const DnsStreamHandler upstream_handler = {
        .message = on_upstream_message,
        .closed = on_upstream_closed,
};

static void on_client_message(DnsStream *stream, const uint8_t *msg, size_t size, void *userdata) {
        TcpRelay *t = userdata;
        FrontStub *s = t->stub;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        int verdict, r;
        unsigned i;

        verdict = stub_verdict(&s->refused, s->settings.native, msg, size, dns_answer_resolved_nsid(), &answer,
                               &answer_size);
        if (verdict < 0)
                return;
        if (verdict == VERDICT_ANSWER) {
                if (dns_stream_write(t->client, answer, answer_size) < 0)
                        tcp_relay_free(t);
                return;
        }

        i = verdict == VERDICT_RELAY_DNSSEC;
        if (!t->upstream[i]) {
                r = dns_stream_connect(s->event, target(s, verdict), STUB_TCP_IDLE_USEC, &upstream_handler, t,
                                       &t->upstream[i]);
                if (r < 0) {
                        log_debug_errno(r, "Failed to connect to resolved: %m");
                        tcp_relay_free(t);
                        return;
                }
        }
        if (dns_stream_write(t->upstream[i], msg, size) < 0)
                tcp_relay_free(t);
}

static void on_client_closed(DnsStream *stream, int error, void *userdata) {
        TcpRelay *t = userdata;

        t->client = NULL;
        tcp_relay_free(t);
}

static const DnsStreamHandler client_handler = {
        .message = on_client_message,
        .closed = on_client_closed,
};

static bool same_source(const SocketAddress *a, const SocketAddress *b) {
        if (a->sa.sa_family != b->sa.sa_family)
                return false;
        if (a->sa.sa_family == AF_INET)
                return a->in.sin_addr.s_addr == b->in.sin_addr.s_addr;
        return a->sa.sa_family == AF_INET6 && memcmp(&a->in6.sin6_addr, &b->in6.sin6_addr, sizeof(struct in6_addr)) == 0;
}

/* The connection (of that source, if given) whose last whole query or answer is oldest. */
static TcpRelay *least_active(FrontStub *s, const SocketAddress *source, unsigned *ret_count) {
        TcpRelay *oldest = NULL;
        unsigned n = 0;

        for (TcpRelay *t = s->tcp_relays; t; t = t->next) {
                if (source && !same_source(&t->peer, source))
                        continue;
                n++;
                if (!oldest || dns_stream_last_activity(t->client) < dns_stream_last_activity(oldest->client))
                        oldest = t;
        }
        if (ret_count)
                *ret_count = n;
        return oldest;
}

/* Room for a new connection: a full table, or a source at its share, gives up its least active one. */
static void make_room(FrontStub *s, const SocketAddress *peer) {
        unsigned n;
        TcpRelay *t = least_active(s, peer, &n);

        if (n < STUB_TCP_PER_SOURCE_MAX) {
                if (s->n_tcp_relays < STUB_TCP_CONNECTIONS_MAX)
                        return;
                t = least_active(s, NULL, NULL);
        }
        if (t) {
                log_debug("Too many TCP connections, closing the one idle longest.");
                tcp_relay_free(t);
        }
}

static int on_tcp_connection(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        FrontStub *s = userdata;
        SocketAddress peer = { .len = sizeof(peer.in6) };
        TcpRelay *t;
        int cfd, r;

        cfd = accept4(fd, &peer.sa, &peer.len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0)
                return 0;
        make_room(s, &peer);
        t = calloc(1, sizeof(TcpRelay));
        if (!t) {
                (void) close(cfd);
                return 0;
        }
        t->stub = s;
        t->peer = peer;
        r = dns_stream_new(s->event, cfd, STUB_TCP_IDLE_USEC, &client_handler, t, &t->client);
        if (r < 0) {
                free(t);
                return 0;
        }
        LIST_LINK(s->tcp_relays, t);
        s->n_tcp_relays++;
        return 0;
}

int front_stub_new(sd_event *e, Listeners *l, const FrontStubSettings *settings, const RefuseSet *refused,
                   FrontStub **ret) {
        FrontStub *s = calloc(1, sizeof(FrontStub));
        int r;

        assert(e);
        assert(l);
        assert(settings);
        assert(refused);
        assert(ret);

        if (!s)
                return -ENOMEM;
        s->event = sd_event_ref(e);
        s->listeners = *l;
        *l = (Listeners) { .udp_fd = -1, .tcp_fd = -1 };
        s->settings = *settings;
        s->refused = *refused;

        r = sd_event_add_io(e, &s->udp_source, s->listeners.udp_fd, EPOLLIN, on_udp_query, s);
        if (r >= 0)
                r = sd_event_add_io(e, &s->tcp_source, s->listeners.tcp_fd, EPOLLIN, on_tcp_connection, s);
        if (r < 0) {
                front_stub_free(s);
                return r;
        }
        *ret = s;
        return 0;
}

void front_stub_set_refused(FrontStub *s, const RefuseSet *refused) {
        assert(s);
        assert(refused);

        s->refused = *refused;
}

void front_stub_free(FrontStub *s) {
        if (!s)
                return;
        while (s->udp_relays)
                udp_relay_free(s->udp_relays);
        while (s->tcp_relays)
                tcp_relay_free(s->tcp_relays);
        s->udp_source = sd_event_source_disable_unref(s->udp_source);
        s->tcp_source = sd_event_source_disable_unref(s->tcp_source);
        listeners_close(&s->listeners);
        sd_event_unref(s->event);
        free(s);
}
