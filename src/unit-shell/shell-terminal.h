/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The terminal of the program urlboot-unit-shell runs in a running service's namespaces.
 *
 * That program runs as the service's user (in a user namespace the service may have made itself) and
 * from the service's file system: it must never get our terminal, or the service could push keystrokes
 * into our shell with TIOCSTI, read what we type after the tool has ended, or change our terminal's
 * mode (G4 of the security review of 2026-12-06). So when any of our stdin, stdout and stderr is a
 * terminal, the program gets a pseudo terminal of its own in their place, as its controlling terminal
 * in a new session, and pty-forward.c copies between it and ours; stdio that is not a terminal (pipes,
 * files) is passed on as it is. Without a terminal on stdio it still starts a new session, so it has no
 * controlling terminal at all.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

typedef struct ShellTerminal {
        int master;        /**< our side of the program's pseudo terminal; -1: none (no terminal on stdio) */
        int slave;         /**< the program's side, until it has it */
        int output;        /**< the terminal the program's output is shown on: our stdout or stderr, or reopened_output */
        int reopened_output; /**< our stdin's terminal opened again for writing, when stdout and stderr are not terminals */
        bool on_stdin, on_stdout, on_stderr; /**< which of our stdio is a terminal (and the program's is the slave) */
        bool signals_blocked;
        sigset_t saved_mask; /**< our signal mask before shell_terminal_open() */
} ShellTerminal;

#define SHELL_TERMINAL_NULL ((ShellTerminal) { .master = -1, .slave = -1, .output = -1, .reopened_output = -1 })

/**
 * In the caller, before forking: allocate the program's pseudo terminal if any of stdin, stdout, stderr
 * is a terminal, and block the signals the forwarding waits for (SIGCHLD, SIGWINCH, and SIGHUP, SIGINT,
 * SIGQUIT, SIGTERM, after which we still die of that signal, with our terminal restored first).
 *
 * @ret ret  the terminal, to be closed with shell_terminal_close(); SHELL_TERMINAL_NULL on failure
 * @ret      0 or negative errno
 */
int shell_terminal_open(ShellTerminal *ret);

/**
 * In the child that then runs the program: start a new session and, with a pseudo terminal, make it the
 * controlling terminal and the stdio that was a terminal. The descriptors of t are close-on-exec.
 *
 * @ret 0 or negative errno
 */
int shell_terminal_attach(const ShellTerminal *t);

/**
 * In the caller: wait for child to end. With a pseudo terminal, forward between ours and it meanwhile (our
 * stdin in raw mode if it is a terminal, the window size passed on); a SIGHUP, SIGINT, SIGQUIT or SIGTERM
 * sent to us restores our terminal and ends us with that signal, as it ended us without a terminal. When
 * forwarding fails, child is ended (SIGTERM) and reaped.
 *
 * @ret ret_code    CLD_EXITED, CLD_KILLED or CLD_DUMPED
 * @ret ret_status  exit status or signal number
 * @ret             0 or negative errno
 */
int shell_terminal_wait(ShellTerminal *t, pid_t child, int *ret_code, int *ret_status);

/** Close the descriptors, restore the signal mask and reset to SHELL_TERMINAL_NULL. */
void shell_terminal_close(ShellTerminal *t);
