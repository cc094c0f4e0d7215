/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Which clients may connect: a list of networks (CIDR), IPv4 and IPv6. An IPv4 client that reaches an IPv6
 * socket as ::ffff:a.b.c.d is matched as a.b.c.d.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct ClientNetwork {
        int family;             /* AF_INET, AF_INET6 */
        uint8_t address[16];
        unsigned prefix;        /* bits */
} ClientNetwork;

/**
 * "10.0.3.0/24", "fd00::/8", "10.0.3.7" (one host), or "any" (0.0.0.0/0 and ::/0 both: ret gets two).
 * @ret the number of networks written to ret (1 or 2), -EINVAL
 */
int client_network_parse(const char *s, ClientNetwork ret[static 2]);

bool client_network_contains(const ClientNetwork *n, const struct sockaddr *a);

bool client_allowed(const ClientNetwork *list, size_t n, const struct sockaddr *a);

/** The address as text ("10.0.3.7", "fd00::7"), for log lines. */
void client_address_format(const struct sockaddr *a, char buf[static 64]);
