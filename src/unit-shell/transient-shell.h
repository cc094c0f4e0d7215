/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A shell in a new sandbox built from a service's settings, for services that are not running
 * (systemd issue #28163): a transient service, started over D-Bus as systemd-run does, that gets
 * the service's sandboxing properties (sandbox-properties.h) and runs the shell or a command.
 */
#pragma once

#include <systemd/sd-bus.h>

typedef enum ShellStdio {
        SHELL_STDIO_AUTO, /**< a terminal when stdin and stdout are terminals, else the pipes */
        SHELL_STDIO_PTY,  /**< a new pseudo terminal, forwarded to ours */
        SHELL_STDIO_PIPE, /**< our stdin, stdout and stderr themselves */
} ShellStdio;

/** The prefix of the transient units' names. */
#define TRANSIENT_SHELL_PREFIX "urlboot-unit-shell-"

/**
 * Start a transient service with the sandbox settings of unit, running command (a login shell
 * without one), and wait for it to end. Signals: SIGINT is passed on to the command, SIGTERM and
 * SIGHUP stop the transient service.
 *
 * Every failure is logged.
 * @v unit     a service unit, loaded (or loadable) by the manager; it need not be running
 * @v command  NULL-terminated argument vector, or NULL for the shell
 * @ret        what to exit with: the command's exit status, or 1
 */
int transient_shell_run(sd_bus *bus, const char *unit, char **command, ShellStdio stdio);
