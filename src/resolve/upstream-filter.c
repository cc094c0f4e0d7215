/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The upstream filter: the DNS server resolved 252 uses, forwarding to the real ones.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dns-answer.h"
#include "dns-query.h"
#include "dns-stream.h"
#include "list.h"
#include "log.h"
#include "macro.h"
#include "query-verdict.h"
#include "sibling-timer.h"
#include "string-util.h"
#include "udp-exchange.h"
#include "upstream-filter.h"

#define FILTER_TCP_IDLE_USEC (10ULL * 1000000ULL)
#define FILTER_PENDING_MAX 4096U
#define FILTER_TCP_CONNECTIONS_MAX 256U

typedef struct Pending Pending;
typedef struct TcpConn TcpConn;

struct UpstreamFilter {
        sd_event *event;
        Listeners listeners;
        sd_event_source *udp_source, *tcp_source, *sibling_timer;
        UpstreamFilterSettings settings;
        unsigned current;               /* the upstream that answered last */
        RefuseSet refused;
        SiblingTable *siblings;
        Pending *pending;
        unsigned n_pending;
        TcpConn *conns;
        unsigned n_conns;
};

/* A client connection and our connection to an upstream server for it. */
struct TcpConn {
        UpstreamFilter *filter;
        DnsStream *client, *upstream;
        TcpConn *prev, *next;
};

/* A query that went upstream and has not been answered. */
struct Pending {
        UpstreamFilter *filter;
        DnsQueryInfo query;             /* question NULL when it was no plain query */
        char *key;                      /* name and class, for A and AAAA only */
        SocketAddress client;           /* UDP: who asked */
        TcpConn *conn;                  /* TCP: where the answer goes */
        UdpExchange *exchange;          /* UDP: the upstream query */
        sd_event_source *timeout;       /* TCP: how long we wait */
        unsigned upstream;
        Pending *prev, *next;
};

static uint64_t now_usec(void) {
        struct timespec ts;

        /* v258's expedited timeout runs on CLOCK_BOOTTIME too. */
        (void) clock_gettime(CLOCK_BOOTTIME, &ts);
        return (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000ULL;
}

static void rearm_sibling_timer(UpstreamFilter *f) {
        uint64_t next = sibling_next_deadline(f->siblings);

        if (next == SIBLING_NEVER) {
                (void) sd_event_source_set_enabled(f->sibling_timer, SD_EVENT_OFF);
                return;
        }
        (void) sd_event_source_set_time(f->sibling_timer, next);
        (void) sd_event_source_set_enabled(f->sibling_timer, SD_EVENT_ONESHOT);
}

static bool pending_same(const Pending *a, const char *key, uint16_t type) {
        return a->key && streq(a->key, key) && a->query.qtype == type;
}

/* Whether another query for the same name and type still waits. */
static bool others_pending(const Pending *p) {
        for (const Pending *o = p->filter->pending; o; o = o->next)
                if (o != p && pending_same(o, p->key, p->query.qtype))
                        return true;
        return false;
}

static void pending_free(Pending *p, bool tell_siblings) {
        UpstreamFilter *f = p->filter;

        if (tell_siblings && p->key && !others_pending(p))
                sibling_forget(f->siblings, p->key, p->query.qtype);
        LIST_UNLINK(f->pending, p);
        f->n_pending--;
        udp_exchange_free(p->exchange);
        sd_event_source_disable_unref(p->timeout);
        dns_query_info_done(&p->query);
        free(p->key);
        free(p);
}

static void tcp_conn_free(TcpConn *c);

/* Sends an answer where p's query came from; a negative result means p's TCP connection failed. */
static int answer_client(Pending *p, const uint8_t *msg, size_t size) {
        UpstreamFilter *f = p->filter;

        if (p->conn)
                return dns_stream_write(p->conn->client, msg, size);
        if (sendto(f->listeners.udp_fd, msg, size, MSG_DONTWAIT | MSG_NOSIGNAL, &p->client.sa, p->client.len) < 0)
                log_debug_errno(errno, "Failed to send an answer to resolved: %m");
        return 0;
}

/* Answers p and forgets it; drops its connection if that fails. */
static void pending_finish(Pending *p, const uint8_t *msg, size_t size, bool tell_siblings) {
        TcpConn *conn = p->conn;
        int r;

        r = answer_client(p, msg, size);
        pending_free(p, tell_siblings);
        if (r < 0 && conn)
                tcp_conn_free(conn);
}

/* An upstream answer for p: note it for the sibling rule, pass it on unchanged. */
static void pending_answered(Pending *p, const uint8_t *reply, size_t size) {
        UpstreamFilter *f = p->filter;
        DnsReplyInfo r;
        bool counted = false;

        if (p->key && dns_reply_inspect(reply, size, &r) >= 0) {
                /* A truncated answer is no answer yet: resolved asks again over TCP. */
                if (!r.truncated && dns_reply_answers(&r, &p->query)) {
                        (void) sibling_answered(f->siblings, p->key, p->query.qtype, r.rcode, r.ttl, now_usec());
                        counted = true;
                }
                dns_reply_info_done(&r);
        }
        pending_finish(p, reply, size, !counted);
        rearm_sibling_timer(f);
}

static void on_upstream_udp_reply(UdpExchange *x, int error, const uint8_t *reply, size_t size, void *userdata) {
        Pending *p = userdata;
        UpstreamFilter *f = p->filter;

        if (error < 0) {
                char buf[SOCKET_ADDRESS_STRING_MAX];

                log_debug_errno(error, "No answer from %s: %m",
                                socket_address_format(&f->settings.upstreams[p->upstream], buf, sizeof buf));
                /* Next time start with the next server. */
                if (f->current == p->upstream)
                        f->current = (p->upstream + 1) % f->settings.n_upstreams;
                pending_free(p, true);
                rearm_sibling_timer(f);
                return;
        }
        f->current = p->upstream;
        pending_answered(p, reply, size);
}

/* The sibling rule ended a query: NODATA to every client still waiting for that name and type. */
static void on_sibling_fired(const char *key, uint16_t type, void *userdata) {
        UpstreamFilter *f = userdata;
        Pending *p;

        log_debug("No %s answer for %s 6 s after its sibling's: answering NODATA.", type == 28 ? "AAAA" : "A", key);
        /* Finishing one may drop a whole TCP connection and other queries with it: look again each time. */
        for (;;) {
                _cleanup_free_ uint8_t *answer = NULL;
                size_t size;

                for (p = f->pending; p && !pending_same(p, key, type); p = p->next)
                        ;
                if (!p)
                        break;
                if (dns_answer_nodata(&p->query, &answer, &size) >= 0)
                        pending_finish(p, answer, size, false);
                else
                        pending_free(p, false);
        }
}

static int on_sibling_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        UpstreamFilter *f = userdata;

        sibling_expire(f->siblings, now_usec(), on_sibling_fired, f);
        rearm_sibling_timer(f);
        return 0;
}

/* Which server a query goes to: a resend of a query still pending tries the next one. */
static unsigned pick_upstream(UpstreamFilter *f, const Pending *p) {
        unsigned n = 0;

        if (p->key)
                for (const Pending *o = f->pending; o; o = o->next)
                        if (o != p && pending_same(o, p->key, p->query.qtype))
                                n++;
        return (f->current + n) % f->settings.n_upstreams;
}

static Pending *pending_new(UpstreamFilter *f, DnsQueryInfo *q) {
        Pending *p;

        if (f->n_pending >= FILTER_PENDING_MAX)
                return NULL;
        p = calloc(1, sizeof(Pending));
        if (!p)
                return NULL;
        p->filter = f;
        p->query = *q;
        *q = (DnsQueryInfo) {};
        if (p->query.question && !f->settings.native && sibling_type_applies(p->query.qtype)) {
                p->key = dns_query_info_key(&p->query);
                if (!p->key) {
                        dns_query_info_done(&p->query);
                        free(p);
                        return NULL;
                }
        }
        p->upstream = pick_upstream(f, p);
        LIST_LINK(f->pending, p);
        f->n_pending++;
        if (p->key)
                (void) sibling_query_started(f->siblings, p->key, p->query.qtype, now_usec());
        return p;
}

static int on_udp_query(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        static uint8_t buf[65536];
        UpstreamFilter *f = userdata;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        SocketAddress client = { .len = sizeof(client.in6) };
        DnsQueryInfo q;
        Pending *p;
        ssize_t n;
        int verdict, r;

        n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, &client.sa, &client.len);
        if (n < 0)
                return 0;
        verdict = filter_verdict(&f->refused, f->settings.native, buf, (size_t) n, &q, &answer, &answer_size);
        if (verdict < 0)
                return 0;
        if (verdict == VERDICT_ANSWER) {
                (void) sendto(fd, answer, answer_size, MSG_DONTWAIT | MSG_NOSIGNAL, &client.sa, client.len);
                return 0;
        }

        p = pending_new(f, &q);
        if (!p) {
                dns_query_info_done(&q);
                return 0;
        }
        p->client = client;
        r = udp_exchange_start(f->event, &f->settings.upstreams[p->upstream], buf, (size_t) n, UPSTREAM_TIMEOUT_USEC,
                               on_upstream_udp_reply, p, &p->exchange);
        if (r < 0) {
                log_debug_errno(r, "Failed to forward a query: %m");
                pending_free(p, true);
        }
        rearm_sibling_timer(f);
        return 0;
}

/* TCP: answers come back on the connection in any order; the ID tells which query they answer. */
static void on_upstream_tcp_message(DnsStream *stream, const uint8_t *msg, size_t size, void *userdata) {
        TcpConn *c = userdata;
        UpstreamFilter *f = c->filter;
        uint16_t id;

        if (size < 2)
                return;
        id = (uint16_t) (msg[0] << 8 | msg[1]);
        for (Pending *p = f->pending; p; p = p->next)
                if (p->conn == c && p->query.id == id && !p->exchange) {
                        pending_answered(p, msg, size);
                        return;
                }
        /* Nobody waits for it any more (the sibling rule answered already): drop it. */
}

static void on_upstream_tcp_closed(DnsStream *stream, int error, void *userdata) {
        TcpConn *c = userdata;

        c->upstream = NULL;
        tcp_conn_free(c);
}

static const DnsStreamHandler upstream_tcp_handler = {
        .message = on_upstream_tcp_message,
        .closed = on_upstream_tcp_closed,
};

static int on_tcp_pending_timeout(sd_event_source *s, uint64_t usec, void *userdata) {
        Pending *p = userdata;
        UpstreamFilter *f = p->filter;

        pending_free(p, true);
        rearm_sibling_timer(f);
        return 0;
}

static void on_client_tcp_message(DnsStream *stream, const uint8_t *msg, size_t size, void *userdata) {
        TcpConn *c = userdata;
        UpstreamFilter *f = c->filter;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        DnsQueryInfo q;
        Pending *p;
        int verdict, r;

        verdict = filter_verdict(&f->refused, f->settings.native, msg, size, &q, &answer, &answer_size);
        if (verdict < 0)
                return;
        if (verdict == VERDICT_ANSWER) {
                if (dns_stream_write(c->client, answer, answer_size) < 0)
                        tcp_conn_free(c);
                return;
        }
        if (!q.question) /* no plain query: we cannot match its answer, so we do not forward it */
                return;

        p = pending_new(f, &q);
        if (!p)
                return;
        p->conn = c;
        r = sd_event_add_time_relative(f->event, &p->timeout, CLOCK_MONOTONIC, UPSTREAM_TIMEOUT_USEC, 0,
                                       on_tcp_pending_timeout, p);
        if (r >= 0 && !c->upstream)
                r = dns_stream_connect(f->event, &f->settings.upstreams[p->upstream], FILTER_TCP_IDLE_USEC,
                                       &upstream_tcp_handler, c, &c->upstream);
        if (r >= 0)
                r = dns_stream_write(c->upstream, msg, size);
        if (r < 0) {
                log_debug_errno(r, "Failed to forward a query over TCP: %m");
                tcp_conn_free(c);
                return;
        }
        rearm_sibling_timer(f);
}

static void on_client_tcp_closed(DnsStream *stream, int error, void *userdata) {
        TcpConn *c = userdata;

        c->client = NULL;
        tcp_conn_free(c);
}

static const DnsStreamHandler client_tcp_handler = {
        .message = on_client_tcp_message,
        .closed = on_client_tcp_closed,
};

static void tcp_conn_free(TcpConn *c) {
        UpstreamFilter *f = c->filter;
        Pending *p, *next;

        for (p = f->pending; p; p = next) {
                next = p->next;
                if (p->conn == c)
                        pending_free(p, true);
        }
        LIST_UNLINK(f->conns, c);
        f->n_conns--;
        dns_stream_close(c->client);
        dns_stream_close(c->upstream);
        free(c);
        rearm_sibling_timer(f);
}

static int on_tcp_connection(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        UpstreamFilter *f = userdata;
        TcpConn *c;
        int cfd;

        cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0)
                return 0;
        if (f->n_conns >= FILTER_TCP_CONNECTIONS_MAX || !(c = calloc(1, sizeof(TcpConn)))) {
                (void) close(cfd);
                return 0;
        }
        c->filter = f;
        if (dns_stream_new(f->event, cfd, FILTER_TCP_IDLE_USEC, &client_tcp_handler, c, &c->client) < 0) {
                free(c);
                return 0;
        }
        LIST_LINK(f->conns, c);
        f->n_conns++;
        return 0;
}

int upstream_filter_new(sd_event *e, Listeners *l, const UpstreamFilterSettings *settings, const RefuseSet *refused,
                        UpstreamFilter **ret) {
        UpstreamFilter *f;
        int r;

        assert(e);
        assert(l);
        assert(settings);
        assert(refused);
        assert(ret);

        if (settings->n_upstreams == 0)
                return -EINVAL;
        f = calloc(1, sizeof(UpstreamFilter));
        if (!f)
                return -ENOMEM;
        f->event = sd_event_ref(e);
        f->listeners = *l;
        *l = (Listeners) { .udp_fd = -1, .tcp_fd = -1 };
        f->settings = *settings;
        f->refused = *refused;
        f->siblings = sibling_table_new();
        if (!f->siblings) {
                upstream_filter_free(f);
                return -ENOMEM;
        }

        r = sd_event_add_io(e, &f->udp_source, f->listeners.udp_fd, EPOLLIN, on_udp_query, f);
        if (r >= 0)
                r = sd_event_add_io(e, &f->tcp_source, f->listeners.tcp_fd, EPOLLIN, on_tcp_connection, f);
        if (r >= 0)
                r = sd_event_add_time(e, &f->sibling_timer, CLOCK_BOOTTIME, 0, 0, on_sibling_timer, f);
        if (r >= 0)
                r = sd_event_source_set_enabled(f->sibling_timer, SD_EVENT_OFF);
        if (r < 0) {
                upstream_filter_free(f);
                return r;
        }
        *ret = f;
        return 0;
}

void upstream_filter_set_refused(UpstreamFilter *f, const RefuseSet *refused) {
        assert(f);
        assert(refused);

        f->refused = *refused;
}

void upstream_filter_free(UpstreamFilter *f) {
        if (!f)
                return;
        while (f->conns)
                tcp_conn_free(f->conns);
        while (f->pending)
                pending_free(f->pending, false);
        f->udp_source = sd_event_source_disable_unref(f->udp_source);
        f->tcp_source = sd_event_source_disable_unref(f->tcp_source);
        f->sibling_timer = sd_event_source_disable_unref(f->sibling_timer);
        sibling_table_free(f->siblings);
        listeners_close(&f->listeners);
        sd_event_unref(f->event);
        free(f);
}
