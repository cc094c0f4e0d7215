/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One HTTP(S) or file: request with libcurl, starting at a byte offset.
 *
 * A resumed request asks for "Range: bytes=N-" with "If-Range: <validator>". A server that answers
 * with the whole body instead (no range support) is handled here: the first N bytes are read and
 * dropped, so the caller always sees the stream continue exactly at N. The caller decides whether
 * the content is still the same (by the validators in the response) in its headers callback.
 *
 * A 206 answer counts only if its Content-Range starts exactly at the requested offset and agrees
 * with its Content-Length; its total size is then the one in Content-Range. Redirects may go from
 * http to https and stay on https, never into file: or other schemes, and from https to plain
 * http only when the request allows it.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct HttpResponse {
        long status;                    /* 0 for file: URLs */
        int64_t content_length;         /* of this response's body, -1 if unknown */
        int64_t total_size;             /* of the whole resource, -1 if unknown */
        bool partial;                   /* 206: the body starts at the requested offset (checked) */
        char *etag;
        char *last_modified;
        unsigned retry_after;           /* seconds as the server said (up to a day), 0 if none */
        char *effective_url;            /* after redirects */
} HttpResponse;

/** When a transfer counts as stalled (an attempt that may pass: another try, or a mirror, takes over). */
typedef struct HttpLimits {
        unsigned stall_timeout;         /* seconds without a byte */
        uint64_t min_rate;              /* bytes per second at least, over each window (0: no minimum) */
        unsigned min_rate_window;       /* seconds */
} HttpLimits;

#define HTTP_LIMITS_DEFAULT ((HttpLimits) { .stall_timeout = 30, .min_rate = 1024, .min_rate_window = 30 })

typedef struct HttpRequest {
        const char *url;
        uint64_t offset;                /* resume here */
        const char *if_range;           /* ETag or Last-Modified of the first response */
        HttpLimits limits;
        const char *ca_file;            /* NULL: the system's CA store */
        bool allow_downgrade;           /* follow a redirect from https to plain http */
        volatile sig_atomic_t *cancel;  /* non-zero stops the transfer */

        /* Called once the response headers are in (after the final redirect). Negative aborts. */
        int (*on_headers)(const HttpResponse *response, void *userdata);
        /* Body bytes, from the requested offset on. Negative aborts with that error. */
        int (*on_data)(const void *data, size_t size, void *userdata);
        void *userdata;
} HttpRequest;

/**
 * Run the request.
 * @v response   filled in (free with http_response_done())
 * @v error      a human-readable reason on failure (at least 256 bytes)
 * @ret  0 when the body arrived completely;
 *       -EAGAIN for what may pass (connection errors, stalls, a short body, 5xx, 408, 429);
 *       -ENOENT for 404/410 or a missing file; -EACCES for 401/403; -EPROTO for other answers
 *       (a refused redirect, response headers over libcurl's limit); -ESTALE for a 206 that does not
 *       continue at the offset; -EINTR when cancelled; or the callbacks' error
 */
int http_fetch(const HttpRequest *request, HttpResponse *response, char *error, size_t error_size);

void http_response_done(HttpResponse *response);

/** Call once at start-up (libcurl's global initialisation is not thread-safe). */
int http_global_init(void);
