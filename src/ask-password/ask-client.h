/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The client side of urlboot-ask-password: one io.systemd.AskPassword.Ask call, its passwords
 * printed for scripts (or as JSON), its errors as one line each.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "ask-request.h"

typedef struct AskClientOptions {
        const char *address;
        const char *message, *icon, *id, *keyname;
        uint64_t timeout_usec;   /* sent as timeoutUSec; 0 only with cache_only */
        bool accept_cached;
        bool push_cache;
        AskEcho echo;
        bool multiple, no_output, newline, json;
        bool interactive;        /* allowInteractiveAuthentication */
} AskClientOptions;

/** Make the call and print; returns the exit status (0, or 1 with the reason logged). */
int ask_client_run(const AskClientOptions *o);
