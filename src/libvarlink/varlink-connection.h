/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One Varlink connection: a stream socket, its input frame, and blocking reads and writes of
 * whole messages, each with a deadline. Both the server and the client side use it.
 */
#pragma once

#include <stdint.h>

#include <json-c/json.h>

#include "varlink-frame.h"

#define VARLINK_INFINITY UINT64_MAX

typedef struct VarlinkConnection {
        int fd;
        VarlinkFrame input;
        char *duplicate_parameter; /* of the last message read: a name given twice in its "parameters" */
} VarlinkConnection;

/** Take over fd (closed by varlink_connection_done()); input limited to max bytes (0: 16 MiB). */
void varlink_connection_init(VarlinkConnection *c, int fd, size_t max);
void varlink_connection_done(VarlinkConnection *c);

/**
 * Read the next message.
 * @v timeout_usec  how long to wait for it (VARLINK_INFINITY: forever)
 * @ret ret         the parsed message (a new reference; NULL for the JSON text "null")
 * @ret             1 with a message (c->duplicate_parameter set when a parameter was given twice, which
 *                  sd-varlink answers with InvalidParameter); 0 at end of stream (a partial message is
 *                  dropped); -ETIMEDOUT; -EBADMSG (not JSON, or a member of the message given twice: a
 *                  protocol error); -EMSGSIZE (over the limit); other errno
 */
int varlink_connection_read(VarlinkConnection *c, uint64_t timeout_usec, struct json_object **ret);

/**
 * Send one message: text (len bytes, no NUL inside) and its terminating NUL. Nothing is read meanwhile,
 * so a peer that does not read stops being read from instead of making replies pile up.
 * @v timeout_usec  how long the peer may take to read it, counted from the first byte the socket does
 *                  not take at once (VARLINK_INFINITY: forever)
 * @ret             0; -ETIMEDOUT when the peer did not take it in time (the connection is then of no
 *                  further use: part of the message may have gone out); -EPIPE, other errno
 */
int varlink_connection_send(VarlinkConnection *c, const char *text, size_t len, uint64_t timeout_usec);

/** Time left until deadline (CLOCK_MONOTONIC µs) as a poll() timeout in ms, rounded up; -1 for never. */
int varlink_poll_timeout_ms(uint64_t deadline_usec);

/** CLOCK_MONOTONIC now, in µs. */
uint64_t varlink_now_usec(void);
