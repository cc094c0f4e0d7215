/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The HTTP(S) side of urlboot-serve, on libmicrohttpd: GET and HEAD of the catalog's resources with one
 * Range (206, 416), If-Range, ETag and Last-Modified; only the clients of the allow-list; bounded
 * connections in all and per client, an idle timeout, a rate and a time limit per answer; one log line for
 * every refusal. Read-only: every other method is 405.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "catalog.h"
#include "client-allow.h"

typedef struct ServeLimits {
        unsigned max_connections;       /* in all */
        unsigned per_client;            /* from one address */
        unsigned idle_timeout;          /* seconds a connection may stay silent */
        unsigned max_seconds;           /* one answer's time, 0: no limit */
        uint64_t rate;                  /* one answer's bytes per second, 0: no limit */
} ServeLimits;

typedef struct ServeConfig {
        struct sockaddr_storage listen;
        socklen_t listen_size;
        const char *tls_cert_pem, *tls_key_pem;         /* both, or neither: plain HTTP */
        const ClientNetwork *allow;
        size_t n_allow;
        ServeLimits limits;
        Catalog *catalog;
} ServeConfig;

typedef struct HttpServer HttpServer;

/** Listen and serve in threads of its own. @ret 0, negative errno (the reason is logged) */
int serve_http_start(const ServeConfig *config, HttpServer **ret);

void serve_http_stop(HttpServer *s);
