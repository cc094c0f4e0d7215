/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One HTTP(S) or file: request with libcurl, starting at a byte offset.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http-source.h"
#include "macro.h"
#include "string-util.h"

#define MAX_REDIRECTS 10
#define CONNECT_TIMEOUT 30

typedef struct Fetch {
        const HttpRequest *request;
        HttpResponse *response;
        CURL *curl;
        bool headers_done;
        uint64_t skip;                  /* bytes to drop: a 200 answer to a range request */
        int callback_error;
        uint64_t last_activity;         /* monotonic µs of the last byte (or of the start) */
        bool stalled;
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
        free(r->etag);
        free(r->last_modified);
        free(r->effective_url);
        *r = (HttpResponse) {};
}

static char *header_value(const char *line, size_t n, const char *name) {
        size_t l = strlen(name);
        const char *v;
        size_t vl;

        if (n <= l || strncasecmp(line, name, l) != 0 || line[l] != ':')
                return NULL;
        v = line + l + 1;
        vl = n - l - 1;
        while (vl > 0 && (*v == ' ' || *v == '\t'))
                v++, vl--;
        while (vl > 0 && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
                vl--;
        return strndup(v, vl);
}

/* A new header block (a redirect's, or a 100 Continue's) starts over. */
static void reset_headers(HttpResponse *r) {
        free(r->etag);
        free(r->last_modified);
        r->etag = r->last_modified = NULL;
        r->retry_after = 0;
}

static size_t on_header(char *line, size_t size, size_t nitems, void *userdata) {
        Fetch *f = userdata;
        size_t n = size * nitems;
        char *v;

        if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) {
                reset_headers(f->response);
                return n;
        }
        if ((v = header_value(line, n, "ETag"))) {
                free(f->response->etag);
                f->response->etag = v;
        } else if ((v = header_value(line, n, "Last-Modified"))) {
                free(f->response->last_modified);
                f->response->last_modified = v;
        } else if ((v = header_value(line, n, "Retry-After"))) {
                char *end;
                long s = strtol(v, &end, 10);
                if (*v && !*end && s >= 0)
                        f->response->retry_after = (unsigned) MIN(s, 3600L);
                else {
                        time_t t = curl_getdate(v, NULL), now = time(NULL);
                        if (t > now)
                                f->response->retry_after = (unsigned) MIN((long) (t - now), 3600L);
                }
                free(v);
        }
        return n;
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

        if (r->status >= 300)
                return 0; /* an error body: the caller never sees it */

        r->partial = r->status == 206;
        if (f->request->offset > 0 && !r->partial)
                f->skip = f->request->offset;
        if (cl >= 0)
                r->total_size = r->partial ? (int64_t) f->request->offset + cl : cl;
        else
                r->total_size = -1;

        if (f->request->on_headers)
                return f->request->on_headers(r, f->request->userdata);
        return 0;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *userdata) {
        Fetch *f = userdata;
        size_t n = size * nmemb, skip;
        int r;

        f->last_activity = now_usec();
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
        r = f->request->on_data(data + skip, n - skip, f->request->userdata);
        /* Waiting for a slow disk is not a stalled network. */
        f->last_activity = now_usec();
        if (r < 0) {
                f->callback_error = r;
                return CURL_WRITEFUNC_ERROR;
        }
        return n;
}

static int on_progress(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
        Fetch *f = userdata;

        if (f->request->cancel && *f->request->cancel)
                return 1;
        /* Our own watchdog: libcurl's low-speed limit averages over several seconds. */
        if (now_usec() - f->last_activity > (uint64_t) MAX(f->request->stall_timeout, 1u) * 1000000ULL) {
                f->stalled = true;
                return 1;
        }
        return 0;
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

int http_fetch(const HttpRequest *request, HttpResponse *response, char *error, size_t error_size) {
        char errbuf[CURL_ERROR_SIZE] = "";
        Fetch f = { .request = request, .response = response };
        struct curl_slist *headers = NULL;
        char range[64];
        CURLcode c;
        int r;

        *response = (HttpResponse) { .content_length = -1, .total_size = -1 };
        error[0] = 0;

        f.curl = curl_easy_init();
        if (!f.curl)
                return -ENOMEM;

        curl_easy_setopt(f.curl, CURLOPT_URL, request->url);
        curl_easy_setopt(f.curl, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(f.curl, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(f.curl, CURLOPT_MAXREDIRS, (long) MAX_REDIRECTS);
        curl_easy_setopt(f.curl, CURLOPT_PROTOCOLS_STR, "http,https,file");
        /* A server may send us elsewhere on the web, never into the local file system. */
        curl_easy_setopt(f.curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(f.curl, CURLOPT_CONNECTTIMEOUT, (long) CONNECT_TIMEOUT);
        curl_easy_setopt(f.curl, CURLOPT_USERAGENT, "urlboot-pull/" URLBOOT_VERSION);
        curl_easy_setopt(f.curl, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(f.curl, CURLOPT_HEADERDATA, &f);
        curl_easy_setopt(f.curl, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(f.curl, CURLOPT_WRITEDATA, &f);
        curl_easy_setopt(f.curl, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(f.curl, CURLOPT_XFERINFODATA, &f);
        curl_easy_setopt(f.curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(f.curl, CURLOPT_BUFFERSIZE, 64L * 1024L);
        if (request->ca_file)
                curl_easy_setopt(f.curl, CURLOPT_CAINFO, request->ca_file);

        if (request->offset > 0) {
                snprintf(range, sizeof range, "%llu-", (unsigned long long) request->offset);
                curl_easy_setopt(f.curl, CURLOPT_RANGE, range);
                if (request->if_range) {
                        _cleanup_free_ char *h = NULL;
                        if (asprintf(&h, "If-Range: %s", request->if_range) >= 0)
                                headers = curl_slist_append(headers, h);
                        curl_easy_setopt(f.curl, CURLOPT_HTTPHEADER, headers);
                }
        }

        f.last_activity = now_usec();
        c = curl_easy_perform(f.curl);
        if (!f.headers_done && c == CURLE_OK) {
                /* An empty body: no write callback ran. */
                r = headers_complete(&f);
                if (r < 0)
                        f.callback_error = r;
        }
        if (!response->status)
                (void) curl_easy_getinfo(f.curl, CURLINFO_RESPONSE_CODE, &response->status);

        if (f.callback_error < 0) {
                r = f.callback_error;
                snprintf(error, error_size, "%s", strerror(-r));
        } else if (f.stalled) {
                r = -EAGAIN;
                snprintf(error, error_size, "no data for %u s", MAX(request->stall_timeout, 1u));
        } else if (c != CURLE_OK) {
                r = classify_curl(c);
                snprintf(error, error_size, "%s", errbuf[0] ? errbuf : curl_easy_strerror(c));
        } else if (response->status >= 300) {
                r = classify_status(response->status);
                snprintf(error, error_size, "HTTP status %ld", response->status);
        } else if (f.skip > 0) {
                /* A full body shorter than what we already had: the file changed under us. */
                r = -ESTALE;
                snprintf(error, error_size, "the file is now shorter than the part already downloaded");
        } else
                r = 0;

        curl_slist_free_all(headers);
        curl_easy_cleanup(f.curl);
        return r;
}
