/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A pager and colour for terminals (pager.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"
#include "string-util.h"

static pid_t pager_pid = 0;
static int saved_stdout = -1;

/* As systemd's: under sudo or pkexec (or setuid), a pager named by the caller's environment would run as root,
 * so then only less, in its secure mode (no shell, no editor, no other files). SYSTEMD_PAGERSECURE= decides. */
static bool pager_secure(void) {
        const char *e = getenv("SYSTEMD_PAGERSECURE");

        if (e && parse_boolean(e) >= 0)
                return parse_boolean(e) > 0;
        return geteuid() != getuid() || getenv("SUDO_UID") || getenv("PKEXEC_UID");
}

static const char *pager_command(void) {
        const char *p;

        if (pager_secure()) {
                setenv("LESSSECURE", "1", 1);
                return "less";
        }
        p = getenv("SYSTEMD_PAGER");
        if (!p)
                p = getenv("PAGER");
        if (p && (isempty(p) || streq(p, "cat")))
                return NULL;
        return p ?: "less || more";
}

void pager_open(bool no_pager) {
        const char *cmd;
        int fds[2];

        if (no_pager || pager_pid > 0 || !isatty(STDOUT_FILENO))
                return;
        cmd = pager_command();
        if (!cmd || pipe2(fds, O_CLOEXEC) < 0)
                return;
        fflush(stdout);
        pager_pid = fork();
        if (pager_pid < 0) {
                pager_pid = 0;
                close(fds[0]);
                close(fds[1]);
                return;
        }
        if (pager_pid == 0) {
                dup2(fds[0], STDIN_FILENO);
                setenv("LESS", getenv("LESS") ?: "FRXMK", 1);
                execl("/bin/sh", "sh", "-c", cmd, (char *) NULL);
                _exit(EXIT_FAILURE);
        }
        saved_stdout = dup(STDOUT_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        /* the pager owns the terminal's ^C; we leave when it does */
        signal(SIGPIPE, SIG_DFL);
}

void pager_close(void) {
        if (pager_pid <= 0)
                return;
        fflush(stdout);
        dup2(saved_stdout, STDOUT_FILENO);      /* the pipe's last writer end closes: the pager sees EOF */
        close(saved_stdout);
        saved_stdout = -1;
        while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
                ;
        pager_pid = 0;
}

bool colors_enabled(void) {
        const char *c = getenv("SYSTEMD_COLORS"), *term = getenv("TERM");

        if (getenv("NO_COLOR"))
                return false;
        if (c) {
                int b = parse_boolean(c);

                /* 16, 256, 24bit: yes; a false boolean: no */
                if (b == 0)
                        return false;
                if (b > 0 || streq(c, "16") || streq(c, "256") || streq(c, "24bit"))
                        return true;
        }
        if (streq_ptr(term, "dumb"))
                return false;
        return pager_pid > 0 || isatty(STDOUT_FILENO);
}
