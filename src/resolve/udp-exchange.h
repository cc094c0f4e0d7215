/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One DNS query over UDP to one server, on a socket of its own.
 *
 * A socket per query keeps replies apart without rewriting IDs: the relay forwards the client's
 * bytes unchanged and gets the server's bytes back. Datagrams from anyone else (the socket is
 * connected, so the kernel filters them) or with another ID are ignored.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "socket-address.h"

typedef struct UdpExchange UdpExchange;

/**
 * Called once: with the reply (error 0), or with -ETIMEDOUT or the socket's error (-ECONNREFUSED
 * when nobody listens). The exchange is over then; free it with udp_exchange_free() (also from
 * within the callback).
 */
typedef void (*udp_exchange_done_t)(UdpExchange *x, int error, const uint8_t *reply, size_t size, void *userdata);

int udp_exchange_start(sd_event *e, const SocketAddress *server, const uint8_t *query, size_t size,
                       uint64_t timeout_usec, udp_exchange_done_t done, void *userdata, UdpExchange **ret);

/** Cancels a running exchange (its callback is not called) or frees a finished one. */
void udp_exchange_free(UdpExchange *x);
