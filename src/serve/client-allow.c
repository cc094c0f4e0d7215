/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The clients' allow-list.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client-allow.h"

int client_network_parse(const char *s, ClientNetwork ret[static 2]) {
        char host[64];
        const char *slash;
        unsigned long prefix;
        size_t n;

        assert(s);

        if (strcmp(s, "any") == 0) {
                ret[0] = (ClientNetwork) { .family = AF_INET, .prefix = 0 };
                ret[1] = (ClientNetwork) { .family = AF_INET6, .prefix = 0 };
                return 2;
        }
        slash = strchr(s, '/');
        n = slash ? (size_t) (slash - s) : strlen(s);
        if (n == 0 || n >= sizeof host)
                return -EINVAL;
        memcpy(host, s, n);
        host[n] = 0;
        ret[0] = (ClientNetwork) {};
        if (inet_pton(AF_INET, host, ret[0].address) == 1)
                ret[0].family = AF_INET;
        else if (inet_pton(AF_INET6, host, ret[0].address) == 1)
                ret[0].family = AF_INET6;
        else
                return -EINVAL;
        ret[0].prefix = ret[0].family == AF_INET ? 32 : 128;
        if (slash) {
                char *end;

                if (slash[1] < '0' || slash[1] > '9')
                        return -EINVAL;
                errno = 0;
                prefix = strtoul(slash + 1, &end, 10);
                if (errno || *end || prefix > ret[0].prefix)
                        return -EINVAL;
                ret[0].prefix = (unsigned) prefix;
        }
        return 1;
}

/* The client's address in family's form; an IPv4-mapped IPv6 address is its IPv4 address. */
static bool client_bytes(const struct sockaddr *a, int family, uint8_t out[static 16]) {
        static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

        if (a->sa_family == AF_INET && family == AF_INET) {
                memcpy(out, &((const struct sockaddr_in *) a)->sin_addr, 4);
                return true;
        }
        if (a->sa_family == AF_INET6) {
                const uint8_t *b = ((const struct sockaddr_in6 *) a)->sin6_addr.s6_addr;

                if (family == AF_INET6) {
                        memcpy(out, b, 16);
                        return true;
                }
                if (memcmp(b, mapped, sizeof mapped) == 0) {
                        memcpy(out, b + 12, 4);
                        return true;
                }
        }
        return false;
}

bool client_network_contains(const ClientNetwork *n, const struct sockaddr *a) {
        uint8_t b[16];
        unsigned full = n->prefix / 8, rest = n->prefix % 8;

        assert(n);
        assert(a);

        if (!client_bytes(a, n->family, b))
                return false;
        if (memcmp(b, n->address, full) != 0)
                return false;
        return rest == 0 || ((b[full] ^ n->address[full]) & (uint8_t) (0xff << (8 - rest))) == 0;
}

bool client_allowed(const ClientNetwork *list, size_t n, const struct sockaddr *a) {
        assert(list || n == 0);
        assert(a);

        for (size_t i = 0; i < n; i++)
                if (client_network_contains(&list[i], a))
                        return true;
        return false;
}

void client_address_format(const struct sockaddr *a, char buf[static 64]) {
        const void *p = a->sa_family == AF_INET ? (const void *) &((const struct sockaddr_in *) a)->sin_addr :
                        a->sa_family == AF_INET6 ? (const void *) &((const struct sockaddr_in6 *) a)->sin6_addr : NULL;

        assert(a);

        if (!p || !inet_ntop(a->sa_family, p, buf, 64))
                snprintf(buf, 64, "(address family %d)", a->sa_family);
}
