/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The UDP and TCP sockets a DNS server of ours listens on: handed over by systemd (socket units) or
 * bound by ourselves.
 */
#pragma once

#include "socket-address.h"

typedef struct Listeners {
        int udp_fd;
        int tcp_fd;
} Listeners;

/**
 * Take the sockets systemd passed ($LISTEN_FDS): one datagram and one stream socket.
 *
 * @ret 1 when there were some, 0 when not socket-activated, negative errno when they do not fit
 */
int listeners_from_activation(Listeners *ret);

/** Bind UDP and TCP on the address (non-blocking, close-on-exec). */
int listeners_bind(const SocketAddress *a, Listeners *ret);

void listeners_close(Listeners *l);
