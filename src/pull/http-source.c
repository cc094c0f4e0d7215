/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One HTTP(S) or file: request with libcurl, starting at a byte offset.
 */
#include <assert.h>
#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "error-buf.h"
#include "http-headers.h"
#include "http-source.h"
#include "macro.h"
#include "string-util.h"
#include "tls-read-ahead.h"

#define MAX_REDIRECTS 10
#define CONNECT_TIMEOUT 30
/* All header lines of one answer (redirects included): more is not a file server talking. */
#define HEADERS_MAX (256 * 1024)

typedef struct Fetch {
        const HttpRequest *request;
        HttpResponse *response;
        CURL *curl;
        bool headers_done;
        uint64_t skip;                  /* bytes to drop: a 200 answer to a range request */
        int callback_error;
        uint64_t last_activity;         /* monotonic µs of the last byte (or of the start) */
        uint64_t window_start;          /* the minimum rate's window: when it began (µs; 0: no body yet) */
        uint64_t window_bytes;          /* bytes from the network since then */
        bool stalled;
        bool too_slow;
        bool downgrade_refused;         /* an https URL: redirects must stay on https */
        bool server_closes;             /* this answer said "Connection: close" */
        char range[32];                 /* "OFFSET-" for CURLOPT_RANGE, which keeps the pointer */
        size_t header_bytes;
        char *content_range;            /* of the final answer */
        char why[160];                  /* set with -ESTALE/-EPROTO from headers_complete() */
} Fetch;

static uint64_t now_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000;
}

int http_global_init(void) {
        return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -EIO;
}

void http_response_done(HttpResponse *r) {
        assert(r);

        free(r->etag);
        free(r->last_modified);
        free(r->effective_url);
        *r = (HttpResponse) {};
}

/* A new header block (a redirect's, or a 100 Continue's) starts over. */
static void reset_headers(Fetch *f) {
        HttpResponse *r = f->response;

        free(r->etag);
        free(r->last_modified);
        r->etag = r->last_modified = NULL;
        r->retry_after = 0;
        f->content_range = mfree(f->content_range);
        f->server_closes = false;
}

static size_t on_header(char *line, size_t size, size_t nitems, void *userdata) {
        Fetch *f = userdata;
        size_t n = size * nitems;
        char *v;

        f->header_bytes += n;
        if (f->header_bytes > HEADERS_MAX) {
                snprintf(f->why, sizeof f->why, "the response headers are too large (over %u KiB)", HEADERS_MAX / 1024);
                f->callback_error = -EPROTO;
                return 0; /* libcurl stops the transfer */
        }
        if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) {
                reset_headers(f);
                return n;
        }
        if ((v = http_header_value(line, n, "ETag"))) {
                free(f->response->etag);
                f->response->etag = v;
        } else if ((v = http_header_value(line, n, "Last-Modified"))) {
                free(f->response->last_modified);
                f->response->last_modified = v;
        } else if ((v = http_header_value(line, n, "Content-Range"))) {
                free(f->content_range);
                f->content_range = v;
        } else if ((v = http_header_value(line, n, "Retry-After"))) {
                f->response->retry_after = http_retry_after_parse(v, time(NULL));
                free(v);
        } else if ((v = http_header_value(line, n, "Connection"))) {
                f->server_closes = http_connection_closes(v);
                free(v);
        }
        return n;
}

/* A 206 must continue exactly where we asked, with as many bytes as its range says. */
static int check_partial(Fetch *f, int64_t content_length) {
        HttpResponse *r = f->response;
        uint64_t first, last;
        int64_t total;

        if (http_content_range_parse(f->content_range, &first, &last, &total) < 0) {
                snprintf(f->why, sizeof f->why, "a partial answer (206) with %s Content-Range",
                         f->content_range ? "a malformed" : "no");
                return -ESTALE;
        }
        if (first != f->request->offset) {
                snprintf(f->why, sizeof f->why, "the partial answer starts at byte %llu, not at %llu as asked",
                         (unsigned long long) first, (unsigned long long) f->request->offset);
                return -ESTALE;
        }
        if (content_length >= 0 && (uint64_t) content_length != last - first + 1) {
                snprintf(f->why, sizeof f->why, "the partial answer's Content-Length (%lld) disagrees with its "
                         "Content-Range (%s)", (long long) content_length, f->content_range);
                return -ESTALE;
        }
        r->total_size = total >= 0 ? total : -1;
        return 0;
}

/* Runs once, before the first body byte: learn status and sizes, decide about skipping. */
static int headers_complete(Fetch *f) {
        HttpResponse *r = f->response;
        curl_off_t cl = -1;
        char *url = NULL;

        f->headers_done = true;
        (void) curl_easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &r->status);
        (void) curl_easy_getinfo(f->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl);
        (void) curl_easy_getinfo(f->curl, CURLINFO_EFFECTIVE_URL, &url);
        r->content_length = cl;
        r->effective_url = url ? strdup(url) : NULL;
        if (f->server_closes)
                tls_read_ahead_enable(f->curl);

        if (r->status >= 300)
                return 0; /* an error body: the caller never sees it */

        r->partial = r->status == 206;
        if (r->partial) {
                int k = check_partial(f, cl);
                if (k < 0)
                        return k;
        } else {
                if (f->request->offset > 0)
                        f->skip = f->request->offset;
                r->total_size = cl >= 0 ? cl : -1;
        }

        if (f->request->on_headers)
                return f->request->on_headers(r, f->request->userdata);
        return 0;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *userdata) {
        Fetch *f = userdata;
        size_t n = size * nmemb, skip;
        int r;

        f->last_activity = now_usec();
        if (f->window_start == 0) /* the rate counts from the first byte of the body */
                f->window_start = f->last_activity;
        f->window_bytes += n;
        if (!f->headers_done) {
                r = headers_complete(f);
                if (r < 0) {
                        f->callback_error = r;
                        return CURL_WRITEFUNC_ERROR;
                }
        }
        /* Error bodies are not data. */
        if (f->response->status >= 300)
                return n;

        skip = (size_t) MIN((uint64_t) n, f->skip);
        f->skip -= skip;
        if (n - skip == 0)
                return n;
        uint64_t before = now_usec();
        r = f->request->on_data(data + skip, n - skip, f->request->userdata);
        /* Waiting for a slow disk is not a stalled or slow network. */
        f->last_activity = now_usec();
        f->window_start += f->last_activity - before;
        if (r < 0) {
                f->callback_error = r;
                return CURL_WRITEFUNC_ERROR;
        }
        return n;
}

/*
 * A server that drips a byte now and then is never idle: over each window the bytes must reach the
 * minimum rate, or the attempt ends as a stall (security review 2026-12-05, F9). 1 aborts.
 */
static int check_min_rate(Fetch *f) {
        const HttpLimits *l = &f->request->limits;
        uint64_t now = now_usec(), window = (uint64_t) l->min_rate_window * 1000000ULL;

        if (l->min_rate == 0 || l->min_rate_window == 0 || f->window_start == 0 || now - f->window_start < window)
                return 0;
        if (f->window_bytes < l->min_rate * l->min_rate_window) {
                f->too_slow = true;
                return 1;
        }
        f->window_start = now;
        f->window_bytes = 0;
        return 0;
}

static int on_progress(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
        Fetch *f = userdata;

        if (f->request->cancel && *f->request->cancel)
                return 1;
        /* Our own watchdog: libcurl's low-speed limit averages over several seconds. */
        if (now_usec() - f->last_activity > (uint64_t) MAX(f->request->limits.stall_timeout, 1u) * 1000000ULL) {
                f->stalled = true;
                return 1;
        }
        return check_min_rate(f);
}

static int classify_status(long status) {
        if (status == 404 || status == 410)
                return -ENOENT;
        if (status == 401 || status == 403)
                return -EACCES;
        if (status == 408 || status == 429 || status >= 500)
                return -EAGAIN;
        return -EPROTO;
}

static int classify_curl(CURLcode c) {
        switch (c) {
        case CURLE_OUT_OF_MEMORY:
                /* What libcurl 7.88 says for a response header line over its 100 KiB limit (and for
                 * little else in practice): asking again gets the same answer. */
                return -EPROTO;
        case CURLE_FILE_COULDNT_READ_FILE:
        case CURLE_REMOTE_FILE_NOT_FOUND:
                return -ENOENT;
        case CURLE_ABORTED_BY_CALLBACK:
                return -EINTR;
        case CURLE_UNSUPPORTED_PROTOCOL:
        case CURLE_URL_MALFORMAT:
        case CURLE_TOO_MANY_REDIRECTS:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
                return -EPROTO;
        default:
                /* Connection refused or reset, DNS, stalls, short bodies: worth another try. */
                return -EAGAIN;
        }
}

/* After a refused redirect: was its target plain http? */
static bool redirect_is_plain_http(CURL *curl) {
        char *url = NULL;

        (void) curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &url);
        if (!url)
                (void) curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &url);
        return url && startswith(url, "http://");
}

static int add_header(struct curl_slist **headers, const char *line) {
        struct curl_slist *l = curl_slist_append(*headers, line);

        if (!l)
                return -ENOMEM;
        *headers = l;
        return 0;
}

/* The handle for one request: where it may go, the callbacks, the range to resume from. */
static int setup_handle(Fetch *f, char *errbuf, struct curl_slist **headers) {
        const HttpRequest *request = f->request;
        CURL *c = f->curl;
        int r;

        curl_easy_setopt(c, CURLOPT_URL, request->url);
        curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long) MAX_REDIRECTS);
        curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,file");
        /* A server may send us elsewhere on the web, never into the local file system, and an https
         * URL was chosen so that nobody on the way can change what arrives. */
        curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, f->downgrade_refused ? "https" : "http,https");
        curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long) CONNECT_TIMEOUT);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "urlboot-pull/" URLBOOT_VERSION);
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_HEADERDATA, f);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, f);
        curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(c, CURLOPT_XFERINFODATA, f);
        curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(c, CURLOPT_BUFFERSIZE, 64L * 1024L);
        if (request->ca_file) {
                /* instead of the system's: Debian's libcurl adds the CApath /etc/ssl/certs to CAINFO */
                curl_easy_setopt(c, CURLOPT_CAINFO, request->ca_file);
                curl_easy_setopt(c, CURLOPT_CAPATH, NULL);
        }
        /* Each request has a handle of its own: the connection is never reused, and a server that
         * promises to close it lets OpenSSL read ahead (tls-read-ahead.h), also after a redirect from
         * http to https. HTTP/1.1 even where the server offers HTTP/2: one stream gains nothing from
         * multiplexing, and libcurl reads HTTP/2 in smaller pieces (100 MiB from nginx: 16,623 receive
         * calls; 2,593 with HTTP/1.1 and read-ahead). */
        curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long) CURL_HTTP_VERSION_1_1);
        tls_read_ahead_prepare(c);
        r = add_header(headers, "Connection: close");
        if (r < 0)
                return r;
        if (request->offset > 0) {
                snprintf(f->range, sizeof f->range, "%llu-", (unsigned long long) request->offset);
                curl_easy_setopt(c, CURLOPT_RANGE, f->range);
                if (request->if_range) {
                        _cleanup_free_ char *h = NULL;

                        if (asprintf(&h, "If-Range: %s", request->if_range) < 0)
                                return -ENOMEM;
                        r = add_header(headers, h);
                        if (r < 0)
                                return r;
                }
        }
        if (*headers)
                curl_easy_setopt(c, CURLOPT_HTTPHEADER, *headers);
        return 0;
}

/* What the transfer came to, most specific cause first; the reason in error. */
static int outcome(Fetch *f, CURLcode c, const char *errbuf, char *error, size_t error_size) {
        const HttpResponse *response = f->response;

        if (f->callback_error < 0)
                return error_setf(error, error_size, f->callback_error, "%s",
                                  f->why[0] ? f->why : strerror(-f->callback_error));
        if (f->stalled)
                return error_setf(error, error_size, -EAGAIN, "no data for %u s", MAX(f->request->limits.stall_timeout, 1u));
        if (f->too_slow)
                return error_setf(error, error_size, -EAGAIN, "slower than %" PRIu64 " bytes/s for %u s (--min-rate=)",
                                  f->request->limits.min_rate, f->request->limits.min_rate_window);
        if (c == CURLE_UNSUPPORTED_PROTOCOL && f->downgrade_refused && redirect_is_plain_http(f->curl))
                return error_setf(error, error_size, -EPROTO, "the server redirected to a plain http URL, which is "
                                  "refused for an https one (--allow-http-redirect allows it)");
        if (c == CURLE_OUT_OF_MEMORY)
                return error_setf(error, error_size, classify_curl(c), "the response headers are too large for libcurl "
                                  "(over 100 KiB), or memory ran out");
        if (c != CURLE_OK)
                return error_setf(error, error_size, classify_curl(c), "%s", errbuf[0] ? errbuf : curl_easy_strerror(c));
        if (response->status >= 300)
                return error_setf(error, error_size, classify_status(response->status), "HTTP status %ld",
                                  response->status);
        /* A full body shorter than what we already had: the file changed under us. */
        if (f->skip > 0)
                return error_setf(error, error_size, -ESTALE, "the file is now shorter than the part already downloaded");
        return 0;
}

int http_fetch(const HttpRequest *request, HttpResponse *response, char *error, size_t error_size) {
        char errbuf[CURL_ERROR_SIZE] = "";
        Fetch f = {
                .request = request,
                .response = response,
                .downgrade_refused = startswith(request->url, "https://") && !request->allow_downgrade,
        };
        struct curl_slist *headers = NULL;
        CURLcode c = CURLE_OK;
        int r;

        assert(request);
        assert(request->url);
        assert(request->on_data);
        assert(response);
        assert(error && error_size > 0);

        *response = (HttpResponse) { .content_length = -1, .total_size = -1 };
        error[0] = 0;
        f.curl = curl_easy_init();
        if (!f.curl)
                return -ENOMEM;

        r = setup_handle(&f, errbuf, &headers);
        if (r >= 0) {
                f.last_activity = now_usec();
                c = curl_easy_perform(f.curl);
                /* An empty body: no write callback ran, so the headers were not looked at yet. */
                if (!f.headers_done && c == CURLE_OK && (r = headers_complete(&f)) < 0)
                        f.callback_error = r;
                if (!response->status)
                        (void) curl_easy_getinfo(f.curl, CURLINFO_RESPONSE_CODE, &response->status);
                r = outcome(&f, c, errbuf, error, error_size);
        }

        curl_slist_free_all(headers);
        curl_easy_cleanup(f.curl);
        free(f.content_range);
        return r;
}
