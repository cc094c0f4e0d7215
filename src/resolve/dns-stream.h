/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * DNS over a TCP connection: messages with a two-byte length in front (RFC 1035 4.2.2).
 *
 * A stream reads whole messages and hands each to its owner; what the owner writes is framed and
 * queued until the socket takes it. Messages are never split or interleaved, so a relay can inject
 * answers of its own between relayed ones. The stream closes itself after an idle time, when the
 * peer closes, when a message is not whole DNS_STREAM_MESSAGE_USEC after its first byte, or when the
 * peer stops reading and too much piles up; the owner hears it once.
 *
 * Only whole messages (and written bytes) count as activity: a peer that sends a byte now and then keeps
 * nothing open (the slowloris of the security review of 2026-12-05, F5).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "socket-address.h"

typedef struct DnsStream DnsStream;

typedef struct DnsStreamHandler {
        /** One whole message (without the length). */
        void (*message)(DnsStream *s, const uint8_t *msg, size_t size, void *userdata);
        /** The stream is over (0: the peer closed it or it was idle; else a negative errno). */
        void (*closed)(DnsStream *s, int error, void *userdata);
} DnsStreamHandler;

/** What may wait to be written before the peer counts as not reading (a few replies' worth). */
#define DNS_STREAM_WRITE_MAX (256U * 1024U)

/** How long a message may take from its first byte to its last (at most 64 KiB: no honest peer needs long). */
#define DNS_STREAM_MESSAGE_USEC (5ULL * 1000000ULL)

/**
 * Wrap an accepted, non-blocking connection.
 *
 * @v idle_usec  close after this long without traffic
 * @ret          0 or negative errno (the fd is closed then)
 */
int dns_stream_new(sd_event *e, int fd, uint64_t idle_usec, const DnsStreamHandler *h, void *userdata,
                   DnsStream **ret);

/** Connect to a server; messages written before the connection is up wait for it. */
int dns_stream_connect(sd_event *e, const SocketAddress *a, uint64_t idle_usec, const DnsStreamHandler *h,
                       void *userdata, DnsStream **ret);

/**
 * Queue one message.
 * @ret 0, -EMSGSIZE (over 65535 bytes), -ENOBUFS (the peer does not read), -ENOMEM
 */
int dns_stream_write(DnsStream *s, const uint8_t *msg, size_t size);

/** Close without calling the closed handler; safe from within the stream's own handlers. */
void dns_stream_close(DnsStream *s);

/** CLOCK_MONOTONIC µs of the last whole message read or bytes written (the start before any). */
uint64_t dns_stream_last_activity(const DnsStream *s);
