/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Who may ask, with polkit's pkcheck for other users.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ask-polkit.h"
#include "fileio.h"
#include "log.h"
#include "macro.h"

/* $URLBOOT_PKCHECK replaces the program (tests use a scripted one). */
static const char *pkcheck_path(void) {
        return secure_getenv("URLBOOT_PKCHECK") ?: "/usr/bin/pkcheck";
}

/* Runs pkcheck for the subject; its exit status, or -1. */
static int run_pkcheck(const char *subject, bool interactive) {
        pid_t pid;
        int status;

        pid = fork();
        if (pid < 0)
                return -1;
        if (pid == 0) {
                int null = open("/dev/null", O_RDWR | O_CLOEXEC);

                if (null >= 0) {
                        (void) dup2(null, STDIN_FILENO);
                        (void) dup2(null, STDOUT_FILENO);
                        if (log_get_max_level() < LOG_DEBUG)
                                (void) dup2(null, STDERR_FILENO);
                }
                if (interactive)
                        execl(pkcheck_path(), "pkcheck", "--action-id", ASK_POLKIT_ACTION, "--process", subject,
                              "--allow-user-interaction", (char *) NULL);
                else
                        execl(pkcheck_path(), "pkcheck", "--action-id", ASK_POLKIT_ACTION, "--process", subject,
                              (char *) NULL);
                _exit(127);
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The peer is still the process that connected. */
static bool peer_unchanged(const ProcessIdentity *peer) {
        int r = process_identity_verify(peer);

        if (r < 0)
                log_debug_errno(r, "Process %d is no longer the one that connected, denying: %m", (int) peer->pid);
        return r >= 0;
}

AskAccess ask_polkit_check(const ProcessIdentity *peer, bool interactive) {
        char subject[96];
        int status;

        assert(peer);

        /* SO_PEERCRED's UID is the kernel's, fixed at connect(): root and we need no polkit. */
        if (peer->uid == 0 || peer->uid == getuid())
                return ASK_ACCESS_ALLOWED;

        if (!peer_unchanged(peer))
                return ASK_ACCESS_DENIED;
        (void) snprintf(subject, sizeof(subject), "%d,%" PRIu64 ",%u", (int) peer->pid, peer->start_time,
                        (unsigned) peer->uid);
        status = run_pkcheck(subject, interactive);
        /* polkit looked at whoever held the PID while it decided: still the same process? */
        if (!peer_unchanged(peer))
                return ASK_ACCESS_DENIED;

        switch (status) {
        case 0:
                return ASK_ACCESS_ALLOWED;
        case 2: /* authentication would be needed, but no interaction or no agent */
                return ASK_ACCESS_NEEDS_INTERACTION;
        default: /* 1 not authorized, 3 dismissed, 127 no pkcheck or an error */
                log_debug("pkcheck for uid %u exited with %d, denying.", (unsigned) peer->uid, status);
                return ASK_ACCESS_DENIED;
        }
}
