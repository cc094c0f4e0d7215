/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-serve's HTTP(S) side, on libmicrohttpd.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "http-range.h"
#include "log.h"
#include "macro.h"
#include "serve-http.h"
#include "string-util.h"

#define BLOCK_SIZE (256U * 1024)

struct HttpServer {
        struct MHD_Daemon *daemon;
        ServeConfig config;
};

/* One answer's body: where it reads, how fast it may go, until when. */
typedef struct Answer {
        const Resource *resource;
        const ServeLimits *limits;
        uint64_t first, length;
        uint64_t sent;
        struct timespec start;
        char client[64];
} Answer;

static double seconds_since(const struct timespec *t) {
        struct timespec now;

        clock_gettime(CLOCK_MONOTONIC, &now);
        return (double) (now.tv_sec - t->tv_sec) + (double) (now.tv_nsec - t->tv_nsec) / 1e9;
}

static ssize_t read_body(void *cls, uint64_t pos, char *buf, size_t max) {
        Answer *a = cls;
        double elapsed = seconds_since(&a->start);
        ssize_t n;

        if (pos >= a->length)
                return MHD_CONTENT_READER_END_OF_STREAM;
        if (a->limits->max_seconds > 0 && elapsed > a->limits->max_seconds) {
                log_notice("Stopped the answer to %s for %s after %u s (--max-seconds=), %" PRIu64 " of %" PRIu64
                           " bytes sent.", a->client, a->resource->path, a->limits->max_seconds, pos, a->length);
                return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        /* the rate: wait until the bytes sent so far were due */
        if (a->limits->rate > 0 && (double) a->sent / (double) a->limits->rate > elapsed) {
                double wait = (double) a->sent / (double) a->limits->rate - elapsed;

                (void) nanosleep(&(struct timespec) { .tv_sec = (time_t) wait,
                                                      .tv_nsec = (long) ((wait - (double) (time_t) wait) * 1e9) },
                                 NULL);
        }
        max = (size_t) MIN((uint64_t) max, a->length - pos);
        if (a->limits->rate > 0)
                max = (size_t) MIN((uint64_t) max, MAX(a->limits->rate / 8, 4096));
        n = resource_read(a->resource, buf, max, a->first + pos);
        if (n <= 0) {
                log_warning("Cannot read %s at %" PRIu64 " for %s: %s", a->resource->file, a->first + pos, a->client,
                            n < 0 ? strerror((int) -n) : "it ends early");
                return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        a->sent += (uint64_t) n;
        return n;
}

static enum MHD_Result queue_simple(struct MHD_Connection *c, unsigned status, const char *text,
                                    const char *header, const char *value) {
        struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *) text, MHD_RESPMEM_MUST_COPY);
        enum MHD_Result q;

        if (!r)
                return MHD_NO;
        (void) MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
        if (header)
                (void) MHD_add_response_header(r, header, value);
        q = MHD_queue_response(c, status, r);
        MHD_destroy_response(r);
        return q;
}

/* If-Range: the Range counts only when the client's validator is still ours. */
static bool range_applies(struct MHD_Connection *c, const Resource *res, const char *modified) {
        const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_RANGE);

        return !v || streq(v, res->etag) || streq(v, modified);
}

static void client_of(struct MHD_Connection *c, char buf[static 64]) {
        const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

        if (i && i->client_addr)
                client_address_format(i->client_addr, buf);
        else
                snprintf(buf, 64, "(unknown)");
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **req) {
        HttpServer *s = cls;
        const char *range = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_RANGE);
        char modified[64], content_range[96], client[64];
        struct MHD_Response *r;
        uint64_t first = 0, last = 0;
        RangeAnswer kind;
        Resource *res;
        Answer *a;
        enum MHD_Result q;
        struct tm tm;

        client_of(c, client);
        if (!streq(method, MHD_HTTP_METHOD_GET) && !streq(method, MHD_HTTP_METHOD_HEAD)) {
                /* at once, before any body is read: the connection closes after the answer */
                if (*req)
                        return MHD_NO;
                *req = (void *) 1;
                log_notice("Refused %s %s from %s: read-only (GET and HEAD only).", method, url, client);
                return queue_simple(c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET and HEAD only\n", MHD_HTTP_HEADER_ALLOW,
                                    "GET, HEAD");
        }
        if (!*req) {    /* the headers: the answer comes with the next call */
                *req = (void *) 1;
                return MHD_YES;
        }
        res = catalog_find(s->config.catalog, url);
        if (!res) {
                log_debug("%s %s from %s: not served here (404).", method, url, client);
                return queue_simple(c, MHD_HTTP_NOT_FOUND, "not served here\n", NULL, NULL);
        }
        if (__atomic_load_n(&res->not_ready, __ATOMIC_ACQUIRE))
                return queue_simple(c, MHD_HTTP_SERVICE_UNAVAILABLE, "not ready yet\n", MHD_HTTP_HEADER_RETRY_AFTER, "30");
        gmtime_r(&res->modified, &tm);
        strftime(modified, sizeof modified, "%a, %d %b %Y %H:%M:%S GMT", &tm);
        kind = range_applies(c, res, modified) ? http_range_parse(range, res->size, &first, &last) : RANGE_WHOLE;
        if (kind == RANGE_UNSATISFIABLE) {
                snprintf(content_range, sizeof content_range, "bytes */%" PRIu64, res->size);
                return queue_simple(c, MHD_HTTP_RANGE_NOT_SATISFIABLE, "range not satisfiable\n",
                                    MHD_HTTP_HEADER_CONTENT_RANGE, content_range);
        }
        if (kind == RANGE_WHOLE) {
                first = 0;
                last = res->size - 1;   /* (an empty resource: length 0 below) */
        }
        a = malloc(sizeof *a);
        if (!a)
                return MHD_NO;
        *a = (Answer) { .resource = res, .limits = &s->config.limits, .first = first,
                        .length = res->size == 0 ? 0 : last - first + 1 };
        memcpy(a->client, client, sizeof a->client);
        clock_gettime(CLOCK_MONOTONIC, &a->start);
        r = MHD_create_response_from_callback(a->length, BLOCK_SIZE, read_body, a, free);
        if (!r) {
                free(a);
                return MHD_NO;
        }
        (void) MHD_add_response_header(r, MHD_HTTP_HEADER_ACCEPT_RANGES, "bytes");
        (void) MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, res->etag);
        (void) MHD_add_response_header(r, MHD_HTTP_HEADER_LAST_MODIFIED, modified);
        (void) MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/octet-stream");
        if (kind == RANGE_PART) {
                snprintf(content_range, sizeof content_range, "bytes %" PRIu64 "-%" PRIu64 "/%" PRIu64, first, last,
                         res->size);
                (void) MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_RANGE, content_range);
        }
        log_debug("%s %s from %s: %s bytes %" PRIu64 "-%" PRIu64 ".", method, url, client,
                  kind == RANGE_PART ? "206" : "200", first, last);
        q = MHD_queue_response(c, kind == RANGE_PART ? MHD_HTTP_PARTIAL_CONTENT : MHD_HTTP_OK, r);
        MHD_destroy_response(r);
        return q;
}

static enum MHD_Result accept_client(void *cls, const struct sockaddr *addr, socklen_t size) {
        HttpServer *s = cls;
        char client[64];

        if (client_allowed(s->config.allow, s->config.n_allow, addr))
                return MHD_YES;
        client_address_format(addr, client);
        log_notice("Refused a connection from %s: not in the networks of --allow=.", client);
        return MHD_NO;
}

/* libmicrohttpd's own messages (a connection limit reached, a TLS handshake that failed): one line each. */
static void mhd_log(void *cls, const char *format, va_list ap) {
        char line[512];
        size_t n;

        vsnprintf(line, sizeof line, format, ap);
        n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = 0;
        log_notice("%s", line);
}

int serve_http_start(const ServeConfig *config, HttpServer **ret) {
        unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
        HttpServer *s = calloc(1, sizeof *s);

        assert(config);
        assert(ret);

        if (!s)
                return log_oom();
        s->config = *config;
        if (config->listen.ss_family == AF_INET6)
                flags |= MHD_USE_IPv6;
        if (config->tls_cert_pem)
                flags |= MHD_USE_TLS;
        s->daemon = MHD_start_daemon(
                flags, 0, accept_client, s, answer, s,
                MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,     /* first, or MHD logs before it is set */
                MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) &config->listen,
                MHD_OPTION_CONNECTION_LIMIT, (unsigned) config->limits.max_connections,
                MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned) config->limits.per_client,
                MHD_OPTION_CONNECTION_TIMEOUT, (unsigned) config->limits.idle_timeout,
                /* without a certificate the list ends here: plain HTTP */
                config->tls_cert_pem ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, config->tls_cert_pem,
                MHD_OPTION_HTTPS_MEM_KEY, config->tls_key_pem,
                MHD_OPTION_END);
        if (!s->daemon) {
                free(s);
                return -EADDRNOTAVAIL;
        }
        *ret = s;
        return 0;
}

void serve_http_stop(HttpServer *s) {
        if (!s)
                return;
        MHD_stop_daemon(s->daemon);
        free(s);
}
