/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-ask-password: systemd v258's io.systemd.AskPassword Varlink service for systemd 252,
 * and a command to call it.
 *
 * Started by a socket unit (a socket in $LISTEN_FDS, as v258's systemd-ask-password is), or
 * with --listen=PATH, it serves; otherwise it asks the service once and prints the password.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "ask-client.h"
#include "ask-request.h"
#include "ask-service.h"
#include "command-table.h"
#include "json-format.h"
#include "exit-status.h"
#include "log.h"
#include "path-util.h"
#include "string-util.h"
#include "varlink-server.h"

#define SYSTEM_ADDRESS "/run/systemd/io.systemd.AskPassword"
#define SYSTEM_DIRECTORY "/run/systemd/ask-password"

static JsonFormat arg_json = JSON_FORMAT_OFF;
static AskClientOptions arg_client = {
        .timeout_usec = ASK_DEFAULT_TIMEOUT_USEC,
        .push_cache = true,
        .echo = ASK_ECHO_MASKED,
        .newline = true,
};
static bool arg_user = false;
static bool arg_cache_only = false;
static const char *arg_listen = NULL;
static uint64_t arg_message_timeout_usec = ASK_MESSAGE_TIMEOUT_USEC;
static char *arg_message = NULL;

enum {
        ARG_ICON = 0x100, ARG_ID, ARG_KEYNAME, ARG_TIMEOUT, ARG_CACHE_ONLY, ARG_ECHO, ARG_ACCEPT_CACHED,
        ARG_NO_PUSH_CACHE, ARG_MULTIPLE, ARG_NO_OUTPUT, ARG_JSON, ARG_INTERACTIVE, ARG_SYSTEM, ARG_USER,
        ARG_ADDRESS, ARG_LISTEN, ARG_MESSAGE_TIMEOUT, ARG_NO_TTY, ARG_VERSION,
};

static const OptionRow options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        { "icon", 0, ARG_ICON, OPTION_REQUIRED, "NAME", "icon name for graphical agents", NULL },
        { "id", 0, ARG_ID, OPTION_REQUIRED, "ID", "query identifier (e.g. \"cryptsetup:/dev/sda5\")", NULL },
        { "keyname", 0, ARG_KEYNAME, OPTION_REQUIRED, "NAME", "kernel keyring key to cache the password in", NULL },
        { "timeout", 0, ARG_TIMEOUT, OPTION_REQUIRED, "SEC",
          "give up after SEC seconds (default 90; 0 or\n\"infinity\": wait forever, as systemd-ask-password)", NULL },
        { "cache-only", 0, ARG_CACHE_ONLY, OPTION_SWITCH, NULL, "only answer from the kernel keyring, never ask", NULL },
        { "echo", 0, ARG_ECHO, OPTION_OPTIONAL, "yes|no|masked",
          "show what is typed, show nothing, or one * per\ncharacter (default)", NULL },
        { NULL, 'e', 'e', OPTION_SWITCH, NULL, "the same as --echo=yes", NULL },
        { "accept-cached", 0, ARG_ACCEPT_CACHED, OPTION_SWITCH, NULL, "accept a password cached under --keyname", NULL },
        { "no-push-cache", 0, ARG_NO_PUSH_CACHE, OPTION_SWITCH, NULL, "do not cache the answer under --keyname", NULL },
        { "multiple", 0, ARG_MULTIPLE, OPTION_SWITCH, NULL, "print every password, one per line", NULL },
        { "no-output", 0, ARG_NO_OUTPUT, OPTION_SWITCH, NULL, "print nothing (the exit status tells)", NULL },
        { NULL, 'n', 'n', OPTION_SWITCH, NULL, "no newline after the password", NULL },
        OPTION_ROW_JSON(ARG_JSON, "print {\"passwords\":[...]} (errors as Varlink errors)"),
        { "interactive", 0, ARG_INTERACTIVE, OPTION_SWITCH, NULL, "let polkit ask the caller to authenticate", NULL },
        { "system", 0, ARG_SYSTEM, OPTION_SWITCH, NULL, "ask the system's agents (default)", NULL },
        { "user", 0, ARG_USER, OPTION_SWITCH, NULL,
          "ask through the user service\n($XDG_RUNTIME_DIR/systemd/io.systemd.AskPassword)", NULL },
        { "address", 0, ARG_ADDRESS, OPTION_REQUIRED, "PATH", "the service's socket", "file" },
        /* service mode */
        { "listen", 0, ARG_LISTEN, OPTION_REQUIRED, "PATH",
          "service mode: listen on PATH and serve each connection", "file" },
        { "message-timeout", 0, ARG_MESSAGE_TIMEOUT, OPTION_REQUIRED, "SEC",
          "service mode: close a connection that sends no whole message,\n"
          "or leaves a reply unread, for SEC seconds (default 30)", NULL },
        { "no-tty", 0, ARG_NO_TTY, OPTION_SWITCH, NULL, "accepted for systemd's unit files; never uses a TTY", NULL },
};

static const CommandTable table = {
        .name = "urlboot-ask-password",
        .arguments = "[MESSAGE...]",
        .summary = "Ask for a password through the io.systemd.AskPassword Varlink service\n"
                   "(" SYSTEM_ADDRESS "), which systemd 258 has and urlboot adds\n"
                   "to older systemd: the question reaches the system's password agents.\n"
                   "The password is printed on standard output.\n"
                   "\n"
                   "Started by its socket unit (socket activation), or with --listen=PATH for testing,\n"
                   "it is that service (service mode).",
        .options = options,
        .n_options = ELEMENTSOF(options),
        .max_arguments = ARGUMENTS_ANY,
};

static int parse_timeout(const char *s, uint64_t *ret) {
        char *end;
        double d;

        if (streq(s, "infinity")) {
                *ret = UINT64_MAX;
                return 0;
        }
        errno = 0;
        d = strtod(s, &end);
        if (errno != 0 || end == s || !(streq(end, "") || streq(end, "s")) || !isfinite(d) || d < 0)
                return -EINVAL;
        /* systemd-ask-password's --timeout=0 waits forever; Varlink's 0 means "cache only". */
        *ret = d == 0 || d >= 1.8e13 ? UINT64_MAX : (uint64_t) (d * 1e6);
        return 0;
}

static int parse_echo(const char *s) {
        int b;

        if (isempty(s) || streq(s, "masked")) {
                arg_client.echo = ASK_ECHO_MASKED;
                return 0;
        }
        b = parse_boolean(s);
        if (b < 0)
                return b;
        arg_client.echo = b ? ASK_ECHO_ON : ASK_ECHO_OFF;
        return 0;
}

static int join_message(int argc, char *argv[]) {
        for (int i = 0; i < argc; i++)
                if (!strextend(&arg_message, i > 0 ? " " : "", argv[i], NULL))
                        return -ENOMEM;
        return 0;
}

static int parse_argv(int argc, char *argv[]) {
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 1;

        if (option_parser_init(&p, &table, argc, argv) < 0)
                return log_oom();
        while (r > 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case ARG_ICON:
                        arg_client.icon = p.argument;
                        break;
                case ARG_ID:
                        arg_client.id = p.argument;
                        break;
                case ARG_KEYNAME:
                        arg_client.keyname = p.argument;
                        break;
                case ARG_TIMEOUT:
                        if (parse_timeout(p.argument, &arg_client.timeout_usec) < 0)
                                r = log_usage_error("--timeout= takes seconds or \"infinity\", not '%s'.",
                                                    p.argument);
                        break;
                case ARG_CACHE_ONLY:
                        arg_cache_only = true;
                        break;
                case 'e':
                        arg_client.echo = ASK_ECHO_ON;
                        break;
                case ARG_ECHO:
                        if (parse_echo(p.argument) < 0)
                                r = log_usage_error("--echo= takes yes, no or masked, not '%s'.", p.argument);
                        break;
                case ARG_ACCEPT_CACHED:
                        arg_client.accept_cached = true;
                        break;
                case ARG_NO_PUSH_CACHE:
                        arg_client.push_cache = false;
                        break;
                case ARG_MULTIPLE:
                        arg_client.multiple = true;
                        break;
                case ARG_NO_OUTPUT:
                        arg_client.no_output = true;
                        break;
                case 'n':
                        arg_client.newline = false;
                        break;
                case ARG_JSON:
                        if (json_format_option(p.argument, &arg_json) < 0)
                                r = -EUSAGE;
                        arg_client.json = arg_json != JSON_FORMAT_OFF;
                        break;
                case ARG_INTERACTIVE:
                        arg_client.interactive = true;
                        break;
                case ARG_SYSTEM:
                        arg_user = false;
                        break;
                case ARG_USER:
                        arg_user = true;
                        break;
                case ARG_ADDRESS:
                        arg_client.address = p.argument;
                        break;
                case ARG_LISTEN:
                        arg_listen = p.argument;
                        break;
                case ARG_MESSAGE_TIMEOUT:
                        if (parse_timeout(p.argument, &arg_message_timeout_usec) < 0)
                                r = log_usage_error("--message-timeout= takes seconds or \"infinity\", not '%s'.",
                                                    p.argument);
                        break;
                case ARG_NO_TTY:
                        break;
                case 'h':
                        r = command_table_help(&table, stdout);
                        break;
                case ARG_VERSION:
                        puts("urlboot-ask-password " URLBOOT_VERSION);
                        r = 0;
                        break;
                }
        if (r > 0 && c < 0)
                r = c;
        if (r > 0)
                r = option_parser_arguments(&p, &nargs, &args) < 0 ? -EUSAGE : 1;
        option_parser_done(&p);
        if (r <= 0)
                return r;

        if (join_message(nargs, args) < 0)
                return log_oom();
        arg_client.message = arg_message;
        if (!arg_client.message && arg_client.echo == ASK_ECHO_ON)
                arg_client.message = "Input:"; /* "Password:" would mislead when the input is shown */
        if (arg_cache_only)
                arg_client.timeout_usec = 0;
        return 1;
}

/* $XDG_RUNTIME_DIR/SUFFIX for the user instance. */
static int runtime_path(const char *suffix, char **ret) {
        const char *e = getenv("XDG_RUNTIME_DIR");

        if (isempty(e) || !path_is_absolute(e))
                return log_error_errno(ENXIO, "--user needs $XDG_RUNTIME_DIR (an absolute path).");
        *ret = path_join(e, suffix);
        return *ret ? 0 : log_oom();
}

static int run_service(void) {
        _cleanup_free_ char *directory = NULL;
        AskServiceConfig config = {
                .user = arg_user,
                .directory = SYSTEM_DIRECTORY,
                .message_timeout_usec = arg_message_timeout_usec,
        };
        int n, fd, r;

        if (arg_user) {
                r = runtime_path("systemd/ask-password", &directory);
                if (r < 0)
                        return r;
                config.directory = directory;
        }

        if (arg_listen) {
                r = varlink_listen_unix(arg_listen, arg_user ? 0600 : 0666, &fd);
                if (r < 0)
                        return log_error_errno(r, "Failed to listen on %s: %m", arg_listen);
                r = ask_service_listen(&config, fd);
                (void) close(fd);
                (void) unlink(arg_listen);
                return r < 0 ? log_error_errno(r, "Failed to accept connections on %s: %m", arg_listen) : 0;
        }

        n = sd_listen_fds(true);
        if (n != 1)
                return log_error_errno(EBADF, "Expected one socket from systemd, got %d.", n);
        fd = SD_LISTEN_FDS_START;
        if (sd_is_socket(fd, AF_UNIX, SOCK_STREAM, 1) > 0) /* Accept=no */
                return ask_service_listen(&config, fd);
        return ask_service_serve(&config, fd);
}

int main(int argc, char *argv[]) {
        JsonCapture capture;
        _cleanup_free_ char *user_address = NULL;
        int r;

        log_set_program("urlboot-ask-password");
        r = parse_argv(argc, argv);
        if (r <= 0) {
                free(arg_message);
                return r == -ENOMEM ? EXIT_FAILURE : r < 0 ? EXIT_USAGE : EXIT_SUCCESS;
        }

        if (arg_listen || getenv("LISTEN_FDS")) {
                r = run_service();
                free(arg_message);
                return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
        }

        if (!arg_client.address) {
                if (arg_user) {
                        if (runtime_path("systemd/io.systemd.AskPassword", &user_address) < 0)
                                return EXIT_FAILURE;
                        arg_client.address = user_address;
                } else
                        arg_client.address = SYSTEM_ADDRESS;
        }
        if (json_capture_begin(&capture, arg_json) < 0)
                return EXIT_FAILURE;
        r = ask_client_run(&arg_client);
        (void) json_capture_end(&capture);
        free(arg_message);
        return r;
}
