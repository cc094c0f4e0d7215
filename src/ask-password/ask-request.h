/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The parameters of one io.systemd.AskPassword.Ask call, read as v258 reads them once the
 * interface check passed: text fields must be strings (null is refused here although the
 * interface says nullable, as v258 does) without control characters, quotes or backslashes
 * (v260's rule: 252's agents read Message= unescaped, so a newline would add keys to the ask
 * file); integers may be decimal strings; booleans must be booleans.
 * Flags start from the defaults on every call (v261's fix: nothing carries over).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

/** v258's DEFAULT_TIMEOUT_USEC: 90 s. */
#define ASK_DEFAULT_TIMEOUT_USEC (90ULL * 1000000ULL)

typedef enum AskEcho {
        ASK_ECHO_OFF,    /* Silent=1: no feedback at all */
        ASK_ECHO_ON,     /* Echo=1: show what is typed */
        ASK_ECHO_MASKED, /* Echo=0, Silent=0: one "*" per character (the default) */
} AskEcho;

typedef struct AskRequest {
        const char *message, *keyname, *icon, *id; /* borrowed from the call; NULL when absent */
        uint64_t timeout_usec;                     /* relative; default 90 s */
        uint64_t until_usec;                       /* absolute CLOCK_MONOTONIC; default UINT64_MAX */
        bool accept_cached;                        /* default false */
        bool push_cache;                           /* default true */
        AskEcho echo;                              /* default masked */
        bool allow_interactive_authentication;    /* default false */
} AskRequest;

/**
 * Read the call's parameters (an object, or NULL for {}).
 * @ret  0, or -EINVAL with *ret_bad_field naming the first bad field in the call's key order
 */
int ask_request_parse(struct json_object *parameters, AskRequest *ret, const char **ret_bad_field);

/**
 * When the question expires: 0 if either timeout is 0 (consult the cache only, never an agent),
 * else min(now + timeoutUSec, untilUSec), UINT64_MAX meaning never.
 */
uint64_t ask_request_deadline(const AskRequest *r, uint64_t now_usec);

/** True if s may go into an ask file: no byte below 0x20, no DEL, no quotes, no backslash. */
bool ask_text_is_safe(const char *s);
