/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A shell inside the sandbox of a running process.
 */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"
#include "namespace-fork.h"
#include "process-namespaces.h"
#include "shell-terminal.h"
#include "string-util.h"
#include "unit-shell-run.h"

/* In the grandchild, inside the sandbox: the lookups (PATH, the shells) happen in its root. */
_noreturn_ static void exec_command_or_shell(char **command) {
        if (command && command[0]) {
                (void) execvp(command[0], command);
                log_error_errno(errno, "Failed to execute '%s': %m", command[0]);
                _exit(EXIT_FAILURE);
        }

        (void) execl(UNIT_SHELL_DEFAULT_SHELL, "-bash", (char *) NULL);
        log_debug_errno(errno, "Failed to execute '" UNIT_SHELL_DEFAULT_SHELL "', ignoring: %m");
        if (!streq(UNIT_SHELL_DEFAULT_SHELL, "/bin/bash")) {
                (void) execl("/bin/bash", "-bash", (char *) NULL);
                log_debug_errno(errno, "Failed to execute '/bin/bash', ignoring: %m");
        }
        (void) execl("/bin/sh", "-sh", (char *) NULL);
        log_debug_errno(errno, "Failed to execute '/bin/sh', ignoring: %m");
        log_error_errno(errno, "Failed to execute '" UNIT_SHELL_DEFAULT_SHELL "', '/bin/bash', and '/bin/sh': %m");
        _exit(EXIT_FAILURE);
}

/* The grandchild: never our terminal (G4 of the security review of 2026-12-06), then the program. */
_noreturn_ static void exec_in_own_session(const ShellTerminal *terminal, char **command) {
        int r;

        assert(terminal);

        r = shell_terminal_attach(terminal);
        if (r < 0) {
                log_error_errno(r, "Failed to detach " UNIT_SHELL_CHILD_NAME " from our terminal: %m");
                _exit(EXIT_FAILURE);
        }
        exec_command_or_shell(command);
}

/* Waits for the middle child, forwarding the program's terminal meanwhile. */
static int wait_for_shell(ShellTerminal *terminal, pid_t child, int *ret_code, int *ret_status) {
        bool forwarded;
        int r;

        assert(terminal);
        assert(ret_code);
        assert(ret_status);

        forwarded = terminal->master >= 0;
        r = shell_terminal_wait(terminal, child, ret_code, ret_status);
        shell_terminal_close(terminal);
        if (r < 0 && forwarded)
                return log_error_errno(r, "Failed to forward the terminal of " UNIT_SHELL_CHILD_NAME ": %m");
        if (r < 0)
                return log_error_errno(r, "Failed to wait for " UNIT_SHELL_CHILD_NAME ": %m");
        return 0;
}

int unit_shell_report_end(int code, int status) {
        switch (code) {
        case CLD_EXITED:
                if (status != EXIT_SUCCESS)
                        log_error("'" UNIT_SHELL_CHILD_NAME "' failed with exit status %d.", status);
                return status;
        case CLD_KILLED:
        case CLD_DUMPED:
                log_error("'" UNIT_SHELL_CHILD_NAME "' terminated by signal %s.", signal_name(status));
                return EXIT_FAILURE;
        default:
                log_error("'" UNIT_SHELL_CHILD_NAME "' failed due to unknown reason.");
                return EXIT_FAILURE;
        }
}

int unit_shell_run(const char *unit, pid_t pid, const char *cgroup, char **command) {
        _cleanup_strv_free_ char **args = NULL;
        ProcessNamespaces ns;
        ShellTerminal terminal;
        pid_t child;
        int r, code, status;

        assert(unit);

        /* A copy: naming the children overwrites our command line, where command points. */
        STRV_FOREACH(a, command)
                if (strv_extend(&args, *a) < 0)
                        return log_oom(), EXIT_FAILURE;

        r = process_namespaces_open(pid, cgroup, &ns);
        if (r == -EREMCHG) {
                log_error("Process %d is no longer the main process of %s (it is not in %s's control group %s).",
                          (int) pid, unit, unit, cgroup);
                return EXIT_FAILURE;
        }
        if (r < 0) {
                log_error_errno(r, "Failed to retrieve FDs of namespaces of %s: %m", unit);
                return EXIT_FAILURE;
        }

        r = shell_terminal_open(&terminal);
        if (r < 0) {
                log_error_errno(r, "Failed to allocate a pseudo terminal: %m");
                process_namespaces_close(&ns);
                return EXIT_FAILURE;
        }

        r = namespace_fork("(unit-shell-ns)", UNIT_SHELL_CHILD_NAME, &ns, &child);
        if (r < 0) {
                log_error_errno(r, "Failed to fork and enter the namespace of %s: %m", unit);
                process_namespaces_close(&ns);
                shell_terminal_close(&terminal);
                return EXIT_FAILURE;
        }
        if (r == 0)
                exec_in_own_session(&terminal, args);

        process_namespaces_close(&ns);
        if (wait_for_shell(&terminal, child, &code, &status) < 0)
                return EXIT_FAILURE;
        return unit_shell_report_end(code, status);
}
