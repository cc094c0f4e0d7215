/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A DNS server of ours: the UDP and TCP listeners, the clients' TCP connections and the record types
 * to refuse.
 *
 * The front stub and the upstream filter are this one server with different answers: what a query
 * gets is theirs to say (a DnsServerHandler, given by front_stub_start() or upstream_filter_start()),
 * the sockets and connections are the server's. A client's TCP connection carries the connections to
 * the upstream servers its queries go to, so that they close together.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "listeners.h"
#include "refuse-set.h"
#include "socket-address.h"

/** The most client connections a server keeps open. */
#define DNS_SERVER_CLIENTS_MAX 256U

/** Upstream connections a client connection may have (the stub's: resolved and its DNSSEC bypass). */
#define TCP_CLIENT_UPSTREAMS_MAX 2U

typedef struct DnsServer DnsServer;
typedef struct TcpClient TcpClient;

/** What a server does with its traffic; each call gets the userdata given to dns_server_start(). */
typedef struct DnsServerHandler {
        /** One datagram from a client (answer it with dns_server_send()). */
        void (*udp_query)(const SocketAddress *client, const uint8_t *msg, size_t size, void *userdata);
        /** One whole message from a client connection. @ret 0, or negative errno: the server closes c */
        int (*tcp_query)(TcpClient *c, const uint8_t *msg, size_t size, void *userdata);
        /** One whole message from an upstream server, on a connection made with tcp_client_relay().
         * @ret 0, or negative errno: the server closes c */
        int (*upstream_message)(TcpClient *c, const uint8_t *msg, size_t size, void *userdata);
        /** A client connects: make room for it, or turn it away (false). NULL: the server's rule, for
         * sockets anyone may reach (when the table is full, or the client's address holds a quarter
         * of it, the connection that did least for longest goes). */
        bool (*admit)(const SocketAddress *peer, void *userdata);
        /** c closes: forget what refers to it (may be NULL). */
        void (*client_closing)(TcpClient *c, void *userdata);
        /** The server is freed: free userdata (required). */
        void (*free_userdata)(void *userdata);
} DnsServerHandler;

/**
 * A server on the sockets (which it then owns; l is left empty). It reads nothing before
 * dns_server_start().
 *
 * @ret 0 or -ENOMEM
 */
int dns_server_new(sd_event *e, Listeners *l, const RefuseSet *refused, DnsServer **ret);

/**
 * Start serving: h says what each query gets. From this call on the server owns userdata (also when
 * it fails: dns_server_free() frees it).
 *
 * @ret 0 or negative errno
 */
int dns_server_start(DnsServer *s, const DnsServerHandler *h, void *userdata);

/** Use a new list (after the configuration was read again). */
void dns_server_set_refused(DnsServer *s, const RefuseSet *refused);

const RefuseSet *dns_server_refused(const DnsServer *s);

sd_event *dns_server_event(const DnsServer *s);

/** Answer a UDP client; a failure is only logged (the client asks again). */
void dns_server_send(DnsServer *s, const SocketAddress *client, const uint8_t *msg, size_t size);

unsigned dns_server_n_clients(const DnsServer *s);

/** Closes every connection and the sockets, and frees the handler's userdata. */
void dns_server_free(DnsServer *s);

/**
 * Queue a message for the client.
 * @ret 0 or negative errno (then c is to be closed)
 */
int tcp_client_reply(TcpClient *c, const uint8_t *msg, size_t size);

/**
 * Queue a query on the upstream connection in slot (connecting it to upstream first when it has none).
 * The answers come to the handler's upstream_message().
 *
 * @ret 0 or negative errno (then c is to be closed)
 */
int tcp_client_relay(TcpClient *c, unsigned slot, const SocketAddress *upstream, const uint8_t *msg, size_t size);

/** Close the client's connection and its upstream ones; safe from within the handler's calls (which
 * then return 0). */
void tcp_client_close(TcpClient *c);
