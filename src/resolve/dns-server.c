/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A DNS server of ours: the listeners, the clients' TCP connections, the record types to refuse.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dns-server.h"
#include "dns-stream.h"
#include "list.h"
#include "log.h"
#include "macro.h"

/* resolved closes idle stub connections after 10 s (DNS_STREAM_STUB_TIMEOUT_USEC); so do we, towards
 * clients and upstream servers alike. */
#define TCP_IDLE_USEC (10ULL * 1000000ULL)
/* No one address may hold more than a quarter of the table; anyone may bind 127.x.y.z, so this alone
 * does not keep a local client out: when full, the connection that did least for longest goes. */
#define CLIENTS_PER_SOURCE_MAX (DNS_SERVER_CLIENTS_MAX / 4U)

struct DnsServer {
        sd_event *event;
        Listeners listeners;
        sd_event_source *udp_source, *tcp_source;
        RefuseSet refused;
        const DnsServerHandler *handler;
        void *userdata;
        TcpClient *clients;
        unsigned n_clients;
};

struct TcpClient {
        DnsServer *server;
        SocketAddress peer;
        DnsStream *stream;
        DnsStream *upstream[TCP_CLIENT_UPSTREAMS_MAX];
        TcpClient *prev, *next;
};

static int on_udp_datagram(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        /* One buffer will do: the handler is done with a datagram before the next is read. */
        static uint8_t buf[65536];
        DnsServer *s = userdata;
        SocketAddress client = { .len = sizeof(client.in6) };
        ssize_t n;

        n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, &client.sa, &client.len);
        if (n >= 0)
                s->handler->udp_query(&client, buf, (size_t) n, s->userdata);
        return 0;
}

void dns_server_send(DnsServer *s, const SocketAddress *client, const uint8_t *msg, size_t size) {
        assert(s);
        assert(client);
        assert(msg || size == 0);

        if (sendto(s->listeners.udp_fd, msg, size, MSG_DONTWAIT | MSG_NOSIGNAL, &client->sa, client->len) < 0)
                log_debug_errno(errno, "Failed to send an answer to a client: %m");
}

void tcp_client_close(TcpClient *c) {
        DnsServer *s;

        assert(c);

        s = c->server;
        if (s->handler->client_closing)
                s->handler->client_closing(c, s->userdata);
        LIST_UNLINK(s->clients, c);
        s->n_clients--;
        dns_stream_close(c->stream);
        for (unsigned i = 0; i < ELEMENTSOF(c->upstream); i++)
                dns_stream_close(c->upstream[i]);
        free(c);
}

int tcp_client_reply(TcpClient *c, const uint8_t *msg, size_t size) {
        assert(c);
        assert(msg || size == 0);

        return dns_stream_write(c->stream, msg, size);
}

/* All streams of a client come here: its own brings queries, the upstream ones bring answers. */
static void on_stream_message(DnsStream *stream, const uint8_t *msg, size_t size, void *userdata) {
        TcpClient *c = userdata;
        const DnsServerHandler *h = c->server->handler;
        int r;

        if (stream == c->stream)
                r = h->tcp_query(c, msg, size, c->server->userdata);
        else
                r = h->upstream_message(c, msg, size, c->server->userdata);
        if (r < 0)
                tcp_client_close(c);
}

/* Whichever stream ends, the client's connection ends with it. */
static void on_stream_closed(DnsStream *stream, int error, void *userdata) {
        TcpClient *c = userdata;

        /* The stream is gone already: forget it before closing the rest. */
        if (c->stream == stream)
                c->stream = NULL;
        else if (error < 0)
                log_debug_errno(error, "Connection to an upstream server failed: %m");
        for (unsigned i = 0; i < ELEMENTSOF(c->upstream); i++)
                if (c->upstream[i] == stream)
                        c->upstream[i] = NULL;
        tcp_client_close(c);
}

static const DnsStreamHandler stream_handler = {
        .message = on_stream_message,
        .closed = on_stream_closed,
};

int tcp_client_relay(TcpClient *c, unsigned slot, const SocketAddress *upstream, const uint8_t *msg, size_t size) {
        int r;

        assert(c);
        assert(slot < ELEMENTSOF(c->upstream));
        assert(upstream);
        assert(msg || size == 0);

        if (!c->upstream[slot]) {
                r = dns_stream_connect(c->server->event, upstream, TCP_IDLE_USEC, &stream_handler, c,
                                       &c->upstream[slot]);
                if (r < 0)
                        return r;
        }
        return dns_stream_write(c->upstream[slot], msg, size);
}

static bool same_source(const SocketAddress *a, const SocketAddress *b) {
        if (a->sa.sa_family != b->sa.sa_family)
                return false;
        if (a->sa.sa_family == AF_INET)
                return a->in.sin_addr.s_addr == b->in.sin_addr.s_addr;
        return a->sa.sa_family == AF_INET6 && memcmp(&a->in6.sin6_addr, &b->in6.sin6_addr, sizeof(struct in6_addr)) == 0;
}

/* The connection (of that source, if given) whose last whole query or answer is oldest. */
static TcpClient *least_active(DnsServer *s, const SocketAddress *source, unsigned *ret_count) {
        TcpClient *oldest = NULL;
        unsigned n = 0;

        for (TcpClient *c = s->clients; c; c = c->next) {
                if (source && !same_source(&c->peer, source))
                        continue;
                n++;
                if (!oldest || dns_stream_last_activity(c->stream) < dns_stream_last_activity(oldest->stream))
                        oldest = c;
        }
        if (ret_count)
                *ret_count = n;
        return oldest;
}

/* Room for a new connection: a full table, or a source at its share, gives up its least active one. */
static void make_room(DnsServer *s, const SocketAddress *peer) {
        unsigned n;
        TcpClient *c = least_active(s, peer, &n);

        if (n < CLIENTS_PER_SOURCE_MAX) {
                if (s->n_clients < DNS_SERVER_CLIENTS_MAX)
                        return;
                c = least_active(s, NULL, NULL);
        }
        if (c) {
                log_debug("Too many TCP connections, closing the one idle longest.");
                tcp_client_close(c);
        }
}

static bool admit(DnsServer *s, const SocketAddress *peer) {
        if (s->handler->admit)
                return s->handler->admit(peer, s->userdata);
        make_room(s, peer);
        return true;
}

static int on_tcp_connection(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        DnsServer *s = userdata;
        SocketAddress peer = { .len = sizeof(peer.in6) };
        TcpClient *c;
        int cfd;

        cfd = accept4(fd, &peer.sa, &peer.len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0)
                return 0;
        if (!admit(s, &peer) || !(c = calloc(1, sizeof(TcpClient)))) {
                (void) close(cfd);
                return 0;
        }
        *c = (TcpClient) { .server = s, .peer = peer };
        if (dns_stream_new(s->event, cfd, TCP_IDLE_USEC, &stream_handler, c, &c->stream) < 0) {
                free(c);
                return 0;
        }
        LIST_LINK(s->clients, c);
        s->n_clients++;
        return 0;
}

unsigned dns_server_n_clients(const DnsServer *s) {
        assert(s);

        return s->n_clients;
}

int dns_server_new(sd_event *e, Listeners *l, const RefuseSet *refused, DnsServer **ret) {
        DnsServer *s;

        assert(e);
        assert(l);
        assert(refused);
        assert(ret);

        s = calloc(1, sizeof(DnsServer));
        if (!s)
                return -ENOMEM;
        s->event = sd_event_ref(e);
        s->listeners = *l;
        *l = (Listeners) { .udp_fd = -1, .tcp_fd = -1 };
        s->refused = *refused;
        *ret = s;
        return 0;
}

int dns_server_start(DnsServer *s, const DnsServerHandler *h, void *userdata) {
        int r;

        assert(s);
        assert(h);
        assert(!s->handler);

        s->handler = h;
        s->userdata = userdata;
        r = sd_event_add_io(s->event, &s->udp_source, s->listeners.udp_fd, EPOLLIN, on_udp_datagram, s);
        if (r < 0)
                return r;
        return sd_event_add_io(s->event, &s->tcp_source, s->listeners.tcp_fd, EPOLLIN, on_tcp_connection, s);
}

void dns_server_set_refused(DnsServer *s, const RefuseSet *refused) {
        assert(s);
        assert(refused);

        s->refused = *refused;
}

const RefuseSet *dns_server_refused(const DnsServer *s) {
        assert(s);

        return &s->refused;
}

sd_event *dns_server_event(const DnsServer *s) {
        assert(s);

        return s->event;
}

void dns_server_free(DnsServer *s) {
        if (!s)
                return;
        while (s->clients)
                tcp_client_close(s->clients);
        if (s->handler)
                s->handler->free_userdata(s->userdata);
        s->udp_source = sd_event_source_disable_unref(s->udp_source);
        s->tcp_source = sd_event_source_disable_unref(s->tcp_source);
        listeners_close(&s->listeners);
        sd_event_unref(s->event);
        free(s);
}
