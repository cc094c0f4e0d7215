/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * IP addresses with a port on the command line: "127.0.0.53", "127.0.0.1:5300", "::1", "[::1]:53" (urlboot-resolve's
 * DNS servers, urlboot-serve's listen addresses).
 */
#pragma once

#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct SocketAddress {
        union {
                struct sockaddr sa;
                struct sockaddr_in in;
                struct sockaddr_in6 in6;
        };
        socklen_t len;
} SocketAddress;

/**
 * Parse an IP address with an optional port (default_port when absent; 0: a port is required).
 * @ret 0 or -EINVAL
 */
int socket_address_parse(const char *s, uint16_t default_port, SocketAddress *ret);

/** "ADDR:PORT" ("[ADDR]:PORT" for IPv6) into buf. */
const char *socket_address_format(const SocketAddress *a, char *buf, size_t size);

#define SOCKET_ADDRESS_STRING_MAX (INET6_ADDRSTRLEN + 8)
