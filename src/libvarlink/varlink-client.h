/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The client side of Varlink: connect to an AF_UNIX socket, send calls, read their replies.
 *
 * Replies are checked as sd-varlink checks them: only "parameters", "error" and "continues";
 * "continues" only where "more" was asked for; an error is final. A violation, or the server
 * hanging up before the final reply, fails the call (-EBADMSG, -ECONNRESET).
 */
#pragma once

#include <stdint.h>

#include <json-c/json.h>

#include "varlink-connection.h"
#include "varlink-message.h"

typedef struct VarlinkClient {
        VarlinkConnection conn;
        struct json_object *current; /* the last reply read; its strings are wiped when dropped */
        VarlinkCallFlags pending;    /* flags of the call awaiting replies */
        bool awaiting;
} VarlinkClient;

/** Connect to a socket path ("unix:" prefix allowed). */
int varlink_client_connect(VarlinkClient *c, const char *address);
void varlink_client_done(VarlinkClient *c);

/** Send a call (parameters may be NULL). Calls can be pipelined: replies come in call order. */
int varlink_client_send(VarlinkClient *c, const char *method, struct json_object *parameters, VarlinkCallFlags flags);

/**
 * Read the next reply of the oldest call sent.
 * @v timeout_usec  VARLINK_INFINITY to wait forever
 * @ret ret         a view into the reply, valid until the next read or varlink_client_done()
 * @ret             0; -ECONNRESET if the server hung up; -EBADMSG on a protocol violation; -ETIMEDOUT
 */
int varlink_client_read(VarlinkClient *c, uint64_t timeout_usec, VarlinkReply *ret);

/** Send a call and read its (single) reply. */
int varlink_client_call(VarlinkClient *c, const char *method, struct json_object *parameters, uint64_t timeout_usec,
                        VarlinkReply *ret);
