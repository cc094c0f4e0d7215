/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Varlink method calls and replies: what a message object may hold, and building them.
 *
 * A call is {"method":NAME,"parameters":{...},"oneway":BOOL,"more":BOOL}; a reply is
 * {"parameters":{...}} with "continues":true while more replies follow, or
 * {"error":NAME,"parameters":{...}}. As in systemd v258, any other key (also "upgrade"), a key
 * twice, a wrong type, or "oneway" together with "more" (whichever comes second, true or not)
 * is a protocol error: the connection is closed without a reply.
 */
#pragma once

#include <stdbool.h>

#include <json-c/json.h>

typedef enum VarlinkCallFlags {
        VARLINK_CALL_ONEWAY = 1 << 0,
        VARLINK_CALL_MORE = 1 << 1,
} VarlinkCallFlags;

typedef struct VarlinkCall {
        const char *method;               /* borrowed from the message object */
        struct json_object *parameters;   /* borrowed; NULL when absent or null (means {}) */
        VarlinkCallFlags flags;
} VarlinkCall;

/** Read a call from a parsed message; -EBADMSG on a protocol violation. */
int varlink_call_parse(struct json_object *msg, VarlinkCall *ret);

typedef struct VarlinkReply {
        const char *error;                /* NULL for a normal reply */
        struct json_object *parameters;   /* borrowed; NULL when absent or null */
        bool continues;
} VarlinkReply;

/** Read a reply from a parsed message; -EBADMSG on a protocol violation. */
int varlink_reply_parse(struct json_object *msg, VarlinkReply *ret);

/** The text of a call (without the NUL); parameters may be NULL; NULL when out of memory. */
char *varlink_call_format(const char *method, struct json_object *parameters, VarlinkCallFlags flags);

/**
 * The text of a reply or error.
 * @v error       error name, or NULL for a reply
 * @v parameters  may be NULL: replies then carry {} (v258 always sends "parameters")
 */
char *varlink_reply_format(const char *error, struct json_object *parameters, bool continues);
