/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The io.systemd.AskPassword service: each Ask call becomes one classic ask file for the
 * agents of systemd 252, with the kernel keyring as cache, answered as systemd v258 answers.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* How long a connection may take to send a whole message (first and between): anyone may connect. */
#define ASK_MESSAGE_TIMEOUT_USEC (30U * 1000U * 1000U)

typedef struct AskServiceConfig {
        bool user;                     /* --user: $XDG_RUNTIME_DIR/systemd/ask-password, own uid trusted */
        const char *directory;         /* where ask files go */
        uint64_t message_timeout_usec; /* UINT64_MAX: none */
} AskServiceConfig;

/** Serve one connected socket (socket activation with Accept=yes); fd is closed. */
int ask_service_serve(const AskServiceConfig *config, int fd);

/** Accept connections on a listening socket, one process each, until SIGTERM/SIGINT. */
int ask_service_listen(const AskServiceConfig *config, int listen_fd);
