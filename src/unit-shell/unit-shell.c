/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-unit-shell: a shell inside the sandbox of a service, as "systemd-analyze unit-shell" gives
 * one from systemd 258 on; with --new-sandbox also for a service that is not running.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-table.h"
#include "exit-status.h"
#include "log.h"
#include "manager-bus.h"
#include "process-name.h"
#include "string-util.h"
#include "systemd-version.h"
#include "transient-shell.h"
#include "unit-name-mangle.h"
#include "unit-shell-run.h"

static ManagerScope arg_scope = MANAGER_SYSTEM;
static bool arg_remote = false;
static bool arg_new_sandbox = false;
static ShellStdio arg_stdio = SHELL_STDIO_AUTO;

enum { ARG_VERSION = 0x100, ARG_SYSTEM, ARG_USER, ARG_NEW_SANDBOX, ARG_PTY, ARG_PIPE, ARG_NO_PAGER };

static const OptionRow options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        { "system", 0, ARG_SYSTEM, OPTION_SWITCH, NULL, "the system's service manager (default)", NULL },
        { "user", 0, ARG_USER, OPTION_SWITCH, NULL, "the calling user's service manager", NULL },
        { "new-sandbox", 0, ARG_NEW_SANDBOX, OPTION_SWITCH, NULL,
          "do not enter the running process: start a new transient service\n"
          "with UNIT's sandboxing settings (see the man page for which) and\n"
          "run COMMAND or the shell in it; UNIT need not be running", NULL },
        { "pty", 0, ARG_PTY, OPTION_SWITCH, NULL,
          "with --new-sandbox: give the shell a new terminal (default when\n"
          "stdin and stdout are terminals)", NULL },
        { "pipe", 0, ARG_PIPE, OPTION_SWITCH, NULL, "with --new-sandbox: give it our stdin, stdout and stderr", NULL },
        /* systemd-analyze's general options, accepted as 262 accepts them (nothing to page) */
        { "quiet", 'q', 'q', OPTION_SWITCH, NULL, "accepted, as systemd-analyze accepts it (no effect)", NULL },
        { "no-pager", 0, ARG_NO_PAGER, OPTION_SWITCH, NULL, "accepted, as systemd-analyze accepts it (no effect)", NULL },
        /* refused, as systemd-analyze refuses them here */
        { "host", 'H', 'H', OPTION_REQUIRED, "[USER@]HOST", NULL, NULL },
        { "machine", 'M', 'M', OPTION_REQUIRED, "CONTAINER", NULL, NULL },
};

static const CommandTable table = {
        .name = "urlboot-unit-shell",
        .arguments = "UNIT [COMMAND [ARG...]]",
        .summary = "Run COMMAND, or a login shell, inside the sandbox of UNIT's main process: its pid,\n"
                   "mount, network and user namespaces and its root directory, as\n"
                   "\"systemd-analyze unit-shell\" does from systemd 258 on. UNIT without a type is a\n"
                   ".service; everything after UNIT goes to COMMAND. The exit status is COMMAND's.\n"
                   "\n"
                   "-H/--host and -M/--machine are refused, as systemd-analyze refuses them here.",
        .options = options,
        .n_options = ELEMENTSOF(options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = NULL,
        .options_end_at_argument = true,        /* COMMAND keeps its own options ("ls -l") */
};

/*
 * Returns 1 to go on, 0 to exit successfully, negative to exit with a usage error; the unit and the command
 * in *ret_argc, *ret_argv.
 */
static int parse_argv(int argc, char *argv[], int *ret_argc, char ***ret_argv) {
        OptionParser p;
        int c = 0, r = 1;

        if (option_parser_init(&p, &table, argc, argv) < 0)
                return log_oom();
        while (r > 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        r = command_table_help(&table, stdout);
                        break;
                case ARG_VERSION:
                        puts("urlboot-unit-shell " URLBOOT_VERSION);
                        r = 0;
                        break;
                case ARG_SYSTEM:
                        arg_scope = MANAGER_SYSTEM;
                        break;
                case ARG_USER:
                        arg_scope = MANAGER_USER;
                        break;
                case 'M':
                        if (isempty(p.argument)) {
                                /* systemd 262's words */
                                r = log_usage_error("Invalid --machine= specified: %s", p.argument);
                                break;
                        }
                        __attribute__((fallthrough));
                case 'H':
                        arg_remote = true;
                        break;
                case 'q':
                case ARG_NO_PAGER:
                        break;
                case ARG_NEW_SANDBOX:
                        arg_new_sandbox = true;
                        break;
                case ARG_PTY:
                        arg_stdio = SHELL_STDIO_PTY;
                        break;
                case ARG_PIPE:
                        arg_stdio = SHELL_STDIO_PIPE;
                        break;
                }
        if (r > 0 && c < 0)
                r = c;
        if (r > 0)
                r = option_parser_arguments(&p, ret_argc, ret_argv) < 0 ? -EUSAGE : 1;
        option_parser_done(&p);
        if (r <= 0)
                return r;

        if (*ret_argc == 0)
                return log_usage_error("Missing the unit (see --help).");
        if (arg_stdio != SHELL_STDIO_AUTO && !arg_new_sandbox)
                return log_usage_error("--pty and --pipe go with --new-sandbox: in a running service the shell "
                                       "always gets a terminal of its own when ours is one.");
        return 1;
}

/* From 258 on systemd has this itself: say so, and do it anyway (scripts may call us). */
static void point_at_systemd_analyze(void) {
        int v = systemd_version();

        if (v >= SYSTEMD_VERSION_UNIT_SHELL && !arg_new_sandbox)
                log_notice("systemd %d is installed: \"systemd-analyze unit-shell\" does the same natively.", v);
}

/* The two lines systemd's tools print when the manager cannot be reached. */
static void log_connect_error(int r) {
        const char *scope = manager_scope_name(arg_scope);

        if (r == -EHOSTDOWN)
                log_error("System has not been booted with systemd as init system (PID 1). Can't operate.");
        if (r == -ENOMEDIUM)
                log_error_errno(r, "Failed to connect to %s scope bus via local transport: $DBUS_SESSION_BUS_ADDRESS "
                                   "and $XDG_RUNTIME_DIR not defined (consider using --machine=<user>@.host --user to "
                                   "connect to bus of other user)", scope);
        else if (r == -EPERM || r == -EACCES)
                log_error_errno(r, "Failed to connect to %s scope bus via local transport: Operation not permitted "
                                   "(consider using --machine=<user>@.host --user to connect to bus of other user)",
                                scope);
        else
                log_error_errno(r, "Failed to connect to %s scope bus via local transport: %m", scope);
}

static int mangle_unit(const char *arg, char **ret) {
        int r;

        r = unit_name_mangle(arg, ".service", ret);
        if (r < 0)
                return log_error_errno(r, "Failed to mangle name '%s': %m", arg);
        if (r & UNIT_NAME_MANGLED_GLOB)
                log_notice("Glob pattern passed as unit, but globs are not supported for this.");
        if (r & UNIT_NAME_MANGLED_ESCAPED) {
                size_t n = strlen(*ret) - (r & UNIT_NAME_MANGLED_SUFFIXED ? strlen(".service") : 0);

                log_notice("Invalid unit name \"%s\" escaped as \"%.*s\"%s.", arg, (int) n, *ret,
                           r & UNIT_NAME_MANGLED_GLOB ? "" : " (maybe you should use systemd-escape?)");
        }
        return 0;
}

/* The steps of systemd-analyze unit-shell, each failure with its message; returns the exit status. */
static int run(const char *arg, char **command) {
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_free_ char *unit = NULL, *cgroup = NULL;
        sd_bus *bus = NULL;
        pid_t pid;
        int r;

        if (arg_remote) {
                log_error("Cannot spawn a unit shell for a remote service.");
                return EXIT_FAILURE;
        }
        if (mangle_unit(arg, &unit) < 0)
                return EXIT_FAILURE;

        /* --new-sandbox keeps its transient unit referenced (AddRef=), which needs a name on the bus. */
        r = arg_new_sandbox ? manager_bus_connect_tracked(arg_scope, &bus) : manager_bus_connect(arg_scope, &bus);
        if (r < 0) {
                log_connect_error(r);
                return EXIT_FAILURE;
        }

        if (arg_new_sandbox) {
                r = transient_shell_run(bus, unit, command, arg_stdio);
                sd_bus_flush_close_unref(bus);
                return r;
        }

        r = unit_get_main_pid(bus, unit, &pid, &error);
        if (r >= 0 && pid > 0)
                r = unit_get_control_group(bus, unit, &cgroup, &error);
        sd_bus_flush_close_unref(bus);
        if (r < 0) {
                log_error_errno(r, "Failed to get the main PID of %s: %s", unit, bus_error_text(&error, r));
                return EXIT_FAILURE;
        }
        if (pid == 0) {
                log_error_errno(ESRCH, "Unit %s has no MainPID (hint: inactive?)", unit);
                return EXIT_FAILURE;
        }

        /* The PID is the manager's word of a moment ago: the process pinned later must still be in the
         * unit's control group. */
        return unit_shell_run(unit, pid, isempty(cgroup) ? NULL : cgroup, command);
}

int main(int argc, char *argv[]) {
        char **args;
        int nargs, r;

        log_set_program("urlboot-unit-shell");
        process_name_init(argv);

        r = parse_argv(argc, argv, &nargs, &args);
        if (r <= 0)
                return r == -ENOMEM ? EXIT_FAILURE : r < 0 ? EXIT_USAGE : EXIT_SUCCESS;

        point_at_systemd_analyze();
        return run(args[0], nargs > 1 ? args + 1 : NULL);
}
