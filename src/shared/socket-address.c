/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * DNS server addresses on the command line.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socket-address.h"

static int parse_port(const char *s, uint16_t *ret) {
        char *end;
        unsigned long v;

        if (*s < '0' || *s > '9')
                return -EINVAL;
        errno = 0;
        v = strtoul(s, &end, 10);
        if (errno || *end || v == 0 || v > 65535)
                return -EINVAL;
        *ret = (uint16_t) v;
        return 0;
}

int socket_address_parse(const char *s, uint16_t default_port, SocketAddress *ret) {
        char host[INET6_ADDRSTRLEN];
        const char *port = NULL, *colon;
        uint16_t p = default_port;
        size_t n;

        assert(s);
        assert(ret);

        if (s[0] == '[') {
                const char *close = strchr(s, ']');

                if (!close || (close[1] && close[1] != ':'))
                        return -EINVAL;
                n = (size_t) (close - s - 1);
                if (n >= sizeof host)
                        return -EINVAL;
                memcpy(host, s + 1, n);
                host[n] = 0;
                if (close[1] == ':')
                        port = close + 2;
        } else {
                colon = strchr(s, ':');
                /* Two colons or more: a bare IPv6 address. */
                if (colon && !strchr(colon + 1, ':')) {
                        n = (size_t) (colon - s);
                        port = colon + 1;
                } else
                        n = strlen(s);
                if (n >= sizeof host)
                        return -EINVAL;
                memcpy(host, s, n);
                host[n] = 0;
        }
        if (port && parse_port(port, &p) < 0)
                return -EINVAL;
        if (p == 0)
                return -EINVAL;         /* no port given, and none by default */

        *ret = (SocketAddress) {};
        if (inet_pton(AF_INET, host, &ret->in.sin_addr) == 1) {
                ret->in.sin_family = AF_INET;
                ret->in.sin_port = htons(p);
                ret->len = sizeof(ret->in);
                return 0;
        }
        if (inet_pton(AF_INET6, host, &ret->in6.sin6_addr) == 1) {
                ret->in6.sin6_family = AF_INET6;
                ret->in6.sin6_port = htons(p);
                ret->len = sizeof(ret->in6);
                return 0;
        }
        return -EINVAL;
}

const char *socket_address_format(const SocketAddress *a, char *buf, size_t size) {
        char host[INET6_ADDRSTRLEN] = "?";

        assert(a);
        assert(buf || size == 0);

        if (a->sa.sa_family == AF_INET6) {
                (void) inet_ntop(AF_INET6, &a->in6.sin6_addr, host, sizeof host);
                (void) snprintf(buf, size, "[%s]:%u", host, ntohs(a->in6.sin6_port));
        } else {
                (void) inet_ntop(AF_INET, &a->in.sin_addr, host, sizeof host);
                (void) snprintf(buf, size, "%s:%u", host, ntohs(a->in.sin_port));
        }
        return buf;
}
