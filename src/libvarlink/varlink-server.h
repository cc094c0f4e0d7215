/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The server side of Varlink: a service (interfaces, method handlers, GetInfo data) answering
 * the calls of one connection in order, as a socket-activated Accept=yes service does, or
 * accepting connections on a listening socket and serving each in a process of its own.
 *
 * What sd-varlink (v258) does is what happens here: calls are checked against the interface
 * before a handler runs (InvalidParameter, ExpectedMore), unknown methods get MethodNotFound,
 * org.varlink.service.GetInfo and GetInterfaceDescription are built in, a handler's negative
 * errno becomes io.systemd.System, "oneway" calls get no reply at all, and anything that breaks
 * the protocol (not JSON, not a call, over 16 MiB) closes the connection without a reply.
 *
 * Calls are read one after the other, each only once the reply to the one before is written: a peer
 * that sends and never reads makes no replies pile up, it stops being read from. With a message
 * timeout, a reply the peer has not taken that long after the socket stopped taking it ends the
 * connection, as a call not complete in that time does.
 */
#pragma once

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "process-identity.h"
#include "varlink-idl.h"
#include "varlink-message.h"

typedef struct VarlinkLink VarlinkLink;

/**
 * A method handler. It answers through the link (reply, error, or close) and returns 0, or a
 * negative errno that is sent as io.systemd.System when nothing was sent yet.
 */
typedef int (*VarlinkMethodHandler)(VarlinkLink *link, struct json_object *parameters, VarlinkCallFlags flags,
                                    void *userdata);

typedef struct VarlinkMethodBinding {
        const char *method; /* full name: "io.systemd.AskPassword.Ask" */
        VarlinkMethodHandler handler;
} VarlinkMethodBinding;

typedef struct VarlinkService {
        const char *vendor, *product, *version, *url; /* GetInfo */
        const VarlinkInterface *const *interfaces;     /* NULL-terminated; io.systemd and org.varlink.service are added */
        const VarlinkMethodBinding *methods;           /* terminated by { NULL } */
        void *userdata;
        size_t buffer_max;                             /* 0: 16 MiB */
        uint64_t message_timeout_usec;                 /* each call read, each reply taken, within (0: no limit) */
        bool peer_without_pidfd;                       /* tests: identify peers as before Linux 6.5 */
} VarlinkService;

/** Serve the calls of one connected socket until the peer hangs up; fd is closed. */
int varlink_service_serve(const VarlinkService *s, int fd);

/**
 * Accept connections on a listening socket and serve each in a child process, until SIGTERM or
 * SIGINT (what systemd does with Accept=yes, for tests and for Accept=no sockets).
 */
int varlink_service_listen(const VarlinkService *s, int listen_fd);

/** A listening AF_UNIX stream socket bound to path with the given mode (an old socket is replaced). */
int varlink_listen_unix(const char *path, mode_t mode, int *ret_fd);

/** Send the final reply (nothing is sent for oneway calls). */
int varlink_link_reply(VarlinkLink *l, struct json_object *parameters);
/** Send a reply with "continues":true; -EPROTO unless the call had "more". */
int varlink_link_notify(VarlinkLink *l, struct json_object *parameters);
/** Send a final reply given as finished JSON text {"parameters":...} (built in wiped memory for secrets). */
int varlink_link_reply_text(VarlinkLink *l, const char *text, size_t len);
int varlink_link_error(VarlinkLink *l, const char *error, struct json_object *parameters);
int varlink_link_error_invalid_parameter(VarlinkLink *l, const char *field);
/** io.systemd.System {"origin":"linux","errno":N,"errnoName":"E..."}. */
int varlink_link_error_errno(VarlinkLink *l, int error);
/** Hang up without answering: the connection ends after this call. */
void varlink_link_close(VarlinkLink *l);

/** The connection's socket, e.g. to notice the peer hanging up while a handler waits. */
int varlink_link_fd(const VarlinkLink *l);
/**
 * Who connected: taken when the connection was (before anything was read), so that a decision about
 * the caller is about that process; check it again with process_identity_verify() after asking anyone
 * (polkit) about it.
 */
const ProcessIdentity *varlink_link_peer(const VarlinkLink *l);
