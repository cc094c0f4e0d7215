/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The upstream filter: the DNS server resolved 252 uses, forwarding to the real ones.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "dns-answer.h"
#include "dns-query.h"
#include "list.h"
#include "log.h"
#include "macro.h"
#include "query-verdict.h"
#include "sibling-timer.h"
#include "string-util.h"
#include "udp-exchange.h"
#include "upstream-filter.h"

#define FILTER_PENDING_MAX 4096U

/* A TCP client's one upstream connection: its queries stay with the server its first one went to. */
#define SLOT_UPSTREAM 0U

typedef struct Pending Pending;

typedef struct UpstreamFilter {
        DnsServer *server;
        sd_event_source *sibling_timer;
        UpstreamFilterSettings settings;
        unsigned current;               /* the upstream that answered last */
        SiblingTable *siblings;
        Pending *pending;
        unsigned n_pending;
} UpstreamFilter;

/* A query that went upstream and has not been answered. */
struct Pending {
        UpstreamFilter *filter;
        DnsQueryInfo query;             /* question NULL when it was no plain query */
        char *key;                      /* name and class, for A and AAAA only */
        SocketAddress client;           /* UDP: who asked */
        TcpClient *conn;                /* TCP: where the answer goes */
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

/* Sends an answer where p's query came from; a negative result means p's TCP connection failed. */
static int answer_client(Pending *p, const uint8_t *msg, size_t size) {
        if (p->conn)
                return tcp_client_reply(p->conn, msg, size);
        dns_server_send(p->filter->server, &p->client, msg, size);
        return 0;
}

/* Answers p and forgets it; drops its connection if that fails. */
static void pending_finish(Pending *p, const uint8_t *msg, size_t size, bool tell_siblings) {
        TcpClient *conn = p->conn;
        int r;

        r = answer_client(p, msg, size);
        pending_free(p, tell_siblings);
        if (r < 0 && conn)
                tcp_client_close(conn);
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

static void on_udp_query(const SocketAddress *client, const uint8_t *msg, size_t size, void *userdata) {
        UpstreamFilter *f = userdata;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        DnsQueryInfo q;
        Pending *p;
        int verdict, r;

        verdict = filter_verdict(dns_server_refused(f->server), f->settings.native, msg, size, &q, &answer,
                                 &answer_size);
        if (verdict < 0)
                return;
        if (verdict == VERDICT_ANSWER) {
                dns_server_send(f->server, client, answer, answer_size);
                return;
        }

        p = pending_new(f, &q);
        if (!p) {
                dns_query_info_done(&q);
                return;
        }
        p->client = *client;
        r = udp_exchange_start(dns_server_event(f->server), &f->settings.upstreams[p->upstream], msg, size,
                               UPSTREAM_TIMEOUT_USEC, on_upstream_udp_reply, p, &p->exchange);
        if (r < 0) {
                log_debug_errno(r, "Failed to forward a query: %m");
                pending_free(p, true);
        }
        rearm_sibling_timer(f);
}

/* TCP: answers come back on the connection in any order; the ID tells which query they answer. */
static int on_upstream_tcp_message(TcpClient *c, const uint8_t *msg, size_t size, void *userdata) {
        UpstreamFilter *f = userdata;
        uint16_t id;

        if (size < 2)
                return 0;
        id = (uint16_t) (msg[0] << 8 | msg[1]);
        for (Pending *p = f->pending; p; p = p->next)
                if (p->conn == c && p->query.id == id && !p->exchange) {
                        pending_answered(p, msg, size); /* closes c itself when the answer does not go */
                        return 0;
                }
        /* Nobody waits for it any more (the sibling rule answered already): drop it. */
        return 0;
}

static int on_tcp_pending_timeout(sd_event_source *s, uint64_t usec, void *userdata) {
        Pending *p = userdata;
        UpstreamFilter *f = p->filter;

        pending_free(p, true);
        rearm_sibling_timer(f);
        return 0;
}

static int on_tcp_query(TcpClient *c, const uint8_t *msg, size_t size, void *userdata) {
        UpstreamFilter *f = userdata;
        _cleanup_free_ uint8_t *answer = NULL;
        size_t answer_size = 0;
        DnsQueryInfo q;
        Pending *p;
        int verdict, r;

        verdict = filter_verdict(dns_server_refused(f->server), f->settings.native, msg, size, &q, &answer,
                                 &answer_size);
        if (verdict < 0)
                return 0; /* no memory: drop the query, resolved asks again */
        if (verdict == VERDICT_ANSWER)
                return tcp_client_reply(c, answer, answer_size);
        if (!q.question) /* no plain query: we cannot match its answer, so we do not forward it */
                return 0;

        p = pending_new(f, &q);
        if (!p)
                return 0;
        p->conn = c;
        r = sd_event_add_time_relative(dns_server_event(f->server), &p->timeout, CLOCK_MONOTONIC,
                                       UPSTREAM_TIMEOUT_USEC, 0, on_tcp_pending_timeout, p);
        if (r >= 0)
                r = tcp_client_relay(c, SLOT_UPSTREAM, &f->settings.upstreams[p->upstream], msg, size);
        if (r < 0)
                return log_debug_errno(r, "Failed to forward a query over TCP: %m");
        rearm_sibling_timer(f);
        return 0;
}

/* A client connection closes: the queries that came on it go with it. */
static void on_client_closing(TcpClient *c, void *userdata) {
        UpstreamFilter *f = userdata;
        Pending *p, *next;

        for (p = f->pending; p; p = next) {
                next = p->next;
                if (p->conn == c)
                        pending_free(p, true);
        }
        rearm_sibling_timer(f);
}

/* resolved is the filter's one client and opens few connections: a full table turns newcomers away
 * (the stub, open to every local program, keeps the server's rule instead). */
static bool admit_client(const SocketAddress *peer, void *userdata) {
        UpstreamFilter *f = userdata;

        return dns_server_n_clients(f->server) < DNS_SERVER_CLIENTS_MAX;
}

static void filter_free(void *userdata) {
        UpstreamFilter *f = userdata;

        while (f->pending)
                pending_free(f->pending, false);
        f->sibling_timer = sd_event_source_disable_unref(f->sibling_timer);
        sibling_table_free(f->siblings);
        free(f);
}

static const DnsServerHandler filter_handler = {
        .udp_query = on_udp_query,
        .tcp_query = on_tcp_query,
        .upstream_message = on_upstream_tcp_message,
        .admit = admit_client,
        .client_closing = on_client_closing,
        .free_userdata = filter_free,
};

int upstream_filter_start(DnsServer *server, const UpstreamFilterSettings *settings) {
        UpstreamFilter *f;
        int r;

        assert(server);
        assert(settings);

        if (settings->n_upstreams == 0)
                return -EINVAL;
        f = calloc(1, sizeof(UpstreamFilter));
        if (!f)
                return -ENOMEM;
        f->server = server;
        f->settings = *settings;
        f->siblings = sibling_table_new();
        if (!f->siblings) {
                filter_free(f);
                return -ENOMEM;
        }

        r = sd_event_add_time(dns_server_event(server), &f->sibling_timer, CLOCK_BOOTTIME, 0, 0, on_sibling_timer, f);
        if (r >= 0)
                r = sd_event_source_set_enabled(f->sibling_timer, SD_EVENT_OFF);
        if (r < 0) {
                filter_free(f);
                return r;
        }
        return dns_server_start(server, &filter_handler, f);
}
