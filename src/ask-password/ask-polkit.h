/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Who may ask: root and the service's own user always; anyone else needs polkit's
 * "io.systemd.ask-password.ask" action (v258's rule), checked with pkcheck(1) from polkitd.
 */
#pragma once

#include <stdbool.h>
#include "process-identity.h"

#define ASK_POLKIT_ACTION "io.systemd.ask-password.ask"

typedef enum AskAccess {
        ASK_ACCESS_ALLOWED,
        ASK_ACCESS_DENIED,               /* org.varlink.service.PermissionDenied */
        ASK_ACCESS_NEEDS_INTERACTION,    /* io.systemd.InteractiveAuthenticationRequired */
} AskAccess;

/**
 * Decide for a peer, as identified when it connected.
 *
 * polkit is asked about "PID,START-TIME,UID"; before and after it answers, the process at PID must
 * still be the one that connected (same start time and UID, or its pidfd alive): a peer that left its
 * socket to a child and exited, its PID since given to a process of someone polkit would allow, is
 * denied.
 * @v interactive  the caller allowed polkit to ask for authentication
 * @ret            the decision; a missing or failing pkcheck denies, as does a peer not identified
 */
AskAccess ask_polkit_check(const ProcessIdentity *peer, bool interactive);
