/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Who may ask: root and the service's own user always; anyone else needs polkit's
 * "io.systemd.ask-password.ask" action (v258's rule), checked with pkcheck(1) from polkitd.
 */
#pragma once

#include <stdbool.h>
#include <sys/socket.h>

#define ASK_POLKIT_ACTION "io.systemd.ask-password.ask"

typedef enum AskAccess {
        ASK_ACCESS_ALLOWED,
        ASK_ACCESS_DENIED,               /* org.varlink.service.PermissionDenied */
        ASK_ACCESS_NEEDS_INTERACTION,    /* io.systemd.InteractiveAuthenticationRequired */
} AskAccess;

/**
 * Decide for a peer.
 * @v interactive  the caller allowed polkit to ask for authentication
 * @ret            the decision; a missing or failing pkcheck denies
 */
AskAccess ask_polkit_check(const struct ucred *peer, bool interactive);
