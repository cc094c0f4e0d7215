/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A shell (or a command) inside the sandbox of a running process: systemd-analyze unit-shell from
 * the point where the unit's main PID is known.
 */
#pragma once

#include <sys/types.h>

/** The shell systemd is built with by default (meson's default-user-shell), tried first. */
#define UNIT_SHELL_DEFAULT_SHELL "/bin/bash"

/** How the waited-for process is called in messages, as in systemd-analyze. */
#define UNIT_SHELL_CHILD_NAME "(unit-shell)"

/**
 * Open the pid, mount, network and user namespaces and the root directory of pid, fork into them
 * and run command there (execvp(), with the caller's $PATH, resolved in the service's file system),
 * or without one a login shell ("-bash", falling back to /bin/sh); then wait. The program never gets
 * our terminal: it runs in a new session, on a pseudo terminal of its own forwarded to ours when our
 * stdio has a terminal (shell-terminal.h).
 *
 * Every failure is logged, with systemd-analyze v258's messages.
 * @v unit     the unit whose main process pid is, for messages
 * @v cgroup   the unit's control group, which the process must still be in (NULL: not checked)
 * @v command  NULL-terminated argument vector, or NULL for the shell
 * @ret        what to exit with: the command's exit status, or 1 (signal, failure)
 */
int unit_shell_run(const char *unit, pid_t pid, const char *cgroup, char **command);

/**
 * Report how a child ended, as systemd-analyze v258 does: nothing for success, "(unit-shell)
 * failed with exit status N." or "(unit-shell) terminated by signal SIGx.".
 *
 * @v code    CLD_EXITED, CLD_KILLED, CLD_DUMPED
 * @v status  exit status or signal
 * @ret       what to exit with: the exit status, or 1 after a signal
 */
int unit_shell_report_end(int code, int status);
