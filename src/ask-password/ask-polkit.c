/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Who may ask, with polkit's pkcheck for other users.
 */
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

/* Field 22 of /proc/PID/stat: polkit identifies a process by pid and start time, so a pid
 * reused by another process does not inherit the answer. */
static int process_start_time(pid_t pid, unsigned long long *ret) {
        _cleanup_free_ char *stat = NULL;
        char path[64], *p;
        int r;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
        r = read_full_file(path, 4096, &stat, NULL);
        if (r < 0)
                return r;
        p = strrchr(stat, ')'); /* the command name may contain anything */
        if (!p)
                return -EIO;
        /* After ")" come field 3 (state) onwards; the start time is the 20th of those. */
        for (int field = 3; field < 22; field++) {
                p = strchr(p + 1, ' ');
                if (!p)
                        return -EIO;
        }
        if (sscanf(p + 1, "%llu", ret) != 1)
                return -EIO;
        return 0;
}

AskAccess ask_polkit_check(const struct ucred *peer, bool interactive) {
        char subject[96];
        unsigned long long start;
        pid_t pid;
        int status;

        if (peer->uid == 0 || peer->uid == getuid())
                return ASK_ACCESS_ALLOWED;

        if (process_start_time(peer->pid, &start) < 0) {
                log_debug("Cannot identify process %d for polkit, denying.", (int) peer->pid);
                return ASK_ACCESS_DENIED;
        }
        snprintf(subject, sizeof(subject), "%d,%llu,%u", (int) peer->pid, start, (unsigned) peer->uid);

        pid = fork();
        if (pid < 0)
                return ASK_ACCESS_DENIED;
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
                        return ASK_ACCESS_DENIED;

        if (!WIFEXITED(status))
                return ASK_ACCESS_DENIED;
        switch (WEXITSTATUS(status)) {
        case 0:
                return ASK_ACCESS_ALLOWED;
        case 2: /* authentication would be needed, but no interaction or no agent */
                return ASK_ACCESS_NEEDS_INTERACTION;
        default: /* 1 not authorized, 3 dismissed, 127 no pkcheck or an error */
                log_debug("pkcheck for uid %u exited with %d, denying.", (unsigned) peer->uid, WEXITSTATUS(status));
                return ASK_ACCESS_DENIED;
        }
}
