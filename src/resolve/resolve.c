/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-resolve: systemd v258's RefuseRecordTypes= and fast A/AAAA lookups for systemd-resolved 252.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include "command-table.h"
#include "json-format.h"
#include "dns-record-type.h"
#include "dns-server.h"
#include "exit-status.h"
#include "front-stub.h"
#include "json-writer.h"
#include "listeners.h"
#include "log.h"
#include "macro.h"
#include "path-util.h"
#include "refuse-config.h"
#include "string-util.h"
#include "systemd-version.h"
#include "upstream-filter.h"

static const char *arg_root = NULL;
static JsonFormat arg_json = JSON_FORMAT_OFF;
static const char *arg_listen = NULL;
static SocketAddress arg_resolved, arg_resolved_dnssec;
static SocketAddress *arg_upstreams = NULL;
static unsigned arg_n_upstreams = 0;

enum { ARG_ROOT = 0x100, ARG_JSON, ARG_LISTEN, ARG_RESOLVED, ARG_RESOLVED_DNSSEC, ARG_UPSTREAM, ARG_VERSION };

#define ROW_LISTEN(help) { "listen", 0, ARG_LISTEN, OPTION_REQUIRED, "ADDR[:PORT]", (help), NULL }
#define ROW_RESOLVED(help) { "resolved", 0, ARG_RESOLVED, OPTION_REQUIRED, "ADDR[:PORT]", (help), NULL }
#define ROW_RESOLVED_DNSSEC(help) { "resolved-dnssec", 0, ARG_RESOLVED_DNSSEC, OPTION_REQUIRED, "ADDR[:PORT]", (help), NULL }
#define ROW_UPSTREAM(help) { "upstream", 0, ARG_UPSTREAM, OPTION_REQUIRED, "ADDR[:PORT]", (help), NULL }
#define ROW_ROOT { "root", 0, ARG_ROOT, OPTION_REQUIRED, "DIR", "read resolved.conf and its drop-ins below DIR", "dir" }
#define ROW_JSON(help) OPTION_ROW_JSON(ARG_JSON, help)

/* Options may come before or after the command (getopt moves them to the front), so this table takes
 * them all; a command's table lists those that matter to it (its --help, the completion) and counts its
 * arguments (none). */
static const OptionRow resolve_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        ROW_LISTEN("where to serve (default " FRONT_STUB_ADDRESS ":53 or " UPSTREAM_FILTER_ADDRESS ":53;\n"
                   "sockets passed by systemd take precedence)"),
        ROW_RESOLVED("stub: resolved's stub (default 127.0.0.53:53)"),
        ROW_RESOLVED_DNSSEC("stub: where queries with DO go (default 127.0.0.54:53)"),
        ROW_UPSTREAM("filter: a real DNS server (repeat for more; required)"),
        ROW_ROOT,
        ROW_JSON("show-config: machine-readable output"),
};

static const OptionRow stub_options[] = {
        OPTION_ROW_HELP,
        ROW_LISTEN("where to serve (default " FRONT_STUB_ADDRESS ":53; sockets passed by\n"
                   "systemd take precedence)"),
        ROW_RESOLVED("resolved's stub (default 127.0.0.53:53)"),
        ROW_RESOLVED_DNSSEC("where queries with DO go (default 127.0.0.54:53)"),
        ROW_ROOT,
};

static const CommandTable stub_table = {
        .name = "urlboot-resolve stub",
        .summary = "Serve DNS on " FRONT_STUB_ADDRESS " for /etc/resolv.conf: refuse the types listed in\n"
                   "resolved.conf's RefuseRecordTypes= as v258 does, relay everything else to resolved\n"
                   "(127.0.0.53; 127.0.0.54 for DNSSEC queries). SIGHUP reads the configuration again.",
        .options = stub_options,
        .n_options = ELEMENTSOF(stub_options),
};

static const OptionRow filter_options[] = {
        OPTION_ROW_HELP,
        ROW_LISTEN("where to serve (default " UPSTREAM_FILTER_ADDRESS ":53; sockets passed by\n"
                   "systemd take precedence)"),
        ROW_UPSTREAM("a real DNS server (repeat for more; required)"),
        ROW_ROOT,
};

static const CommandTable filter_table = {
        .name = "urlboot-resolve filter",
        .summary = "Serve DNS on " UPSTREAM_FILTER_ADDRESS " for resolved's DNS=: answer the types listed in\n"
                   "resolved.conf's RefuseRecordTypes= with NODATA, forward the rest to the upstream\n"
                   "servers, and end an A or AAAA query with NODATA 6 s after the other one succeeded.\n"
                   "SIGHUP reads the configuration again.",
        .options = filter_options,
        .n_options = ELEMENTSOF(filter_options),
};

static const OptionRow show_config_options[] = {
        OPTION_ROW_HELP,
        ROW_ROOT,
        ROW_JSON("machine-readable output"),
};

static const CommandTable show_config_table = {
        .name = "urlboot-resolve show-config",
        .summary = "Print the effective RefuseRecordTypes= and where it comes from.",
        .options = show_config_options,
        .n_options = ELEMENTSOF(show_config_options),
};

static const CommandTable resolve_table = {
        .name = "urlboot-resolve",
        .arguments = "COMMAND",
        .summary = "systemd v258's RefuseRecordTypes= and its fast A/AAAA lookups for systemd-resolved 252.\n"
                   "\n"
                   "Commands:\n"
                   "  stub          serve DNS on " FRONT_STUB_ADDRESS " for /etc/resolv.conf: refuse the types\n"
                   "                listed in resolved.conf's RefuseRecordTypes= as v258 does, relay\n"
                   "                everything else to resolved (127.0.0.53; 127.0.0.54 for DNSSEC queries)\n"
                   "  filter        serve DNS on " UPSTREAM_FILTER_ADDRESS " for resolved's DNS=: answer the listed\n"
                   "                types with NODATA, forward the rest to the upstream servers, and end\n"
                   "                an A or AAAA query with NODATA 6 s after the other one succeeded\n"
                   "  show-config   print the effective RefuseRecordTypes= and where it comes from\n"
                   "\n"
                   "From systemd 258 on resolved does all of this itself: the servers then relay everything.\n"
                   "SIGHUP reads the configuration again. See urlboot-resolve(8).\n"
                   "Run 'urlboot-resolve COMMAND --help' for a command's options.",
        .options = resolve_options,
        .n_options = ELEMENTSOF(resolve_options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "verbs",
        .verbs = (const CommandTable *const []) { &stub_table, &filter_table, &show_config_table, NULL },
};

static void log_diagnostics(const RefuseConfig *c) {
        STRV_FOREACH(d, c->diagnostics)
                log_warning("%s", *d);
        if (c->error < 0)
                log_warning_errno(c->error, "Failed to parse %s, using what came before it: %m", c->error_file);
}

static char *format_types(const RefuseSet *s) {
        char *text = strdup("");

        REFUSE_SET_FOREACH(t, s) {
                const char *name = dns_record_type_to_string((uint16_t) t);
                char num[16];

                if (!name) {
                        snprintf(num, sizeof num, "TYPE%d", t);
                        name = num;
                }
                if (!text || !strextend(&text, *text ? " " : "", name, NULL))
                        return mfree(text);
        }
        return text;
}

static int load_config(RefuseSet *ret) {
        RefuseConfig c;
        int r;

        r = refuse_config_load(arg_root, &c);
        if (r < 0)
                return log_oom();
        log_diagnostics(&c);
        *ret = c.types;
        refuse_config_done(&c);
        return 0;
}

/* Whether resolved refuses types itself (systemd ≥ 258): then the servers only relay. */
static bool systemd_is_native(void) {
        int v = systemd_version();

        if (v < 0) {
                log_debug_errno(v, "Cannot tell the systemd version, assuming an older one: %m");
                return false;
        }
        return v >= SYSTEMD_VERSION_REFUSES_TYPES;
}

static int get_listeners(const char *fallback, Listeners *ret) {
        SocketAddress a;
        char buf[SOCKET_ADDRESS_STRING_MAX];
        int r;

        r = listeners_from_activation(ret);
        if (r < 0)
                return log_error_errno(r, "The sockets passed by systemd are not one UDP and one TCP socket: %m");
        if (r > 0)
                return 0;

        r = socket_address_parse(arg_listen ?: fallback, 53, &a);
        if (r < 0)
                return log_error_errno(r, "Invalid listen address '%s'.", arg_listen ?: fallback);
        r = listeners_bind(&a, ret);
        if (r < 0)
                return log_error_errno(r, "Failed to listen on %s: %m (is something else there, or is "
                                       "CAP_NET_BIND_SERVICE missing?)", socket_address_format(&a, buf, sizeof buf));
        return 0;
}

static int on_reload(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        DnsServer **server = userdata;
        _cleanup_free_ char *types = NULL;
        RefuseSet refused;

        (void) sd_notify(false, "RELOADING=1");
        if (load_config(&refused) >= 0) {
                if (*server)
                        dns_server_set_refused(*server, &refused);
                types = format_types(&refused);
                log_info("Configuration read again; RefuseRecordTypes=%s", types ?: "");
        }
        (void) sd_notify(false, "READY=1");
        return 0;
}

/* Services get a soft limit of 1024 descriptors; each waiting UDP query holds one. */
static void raise_fd_limit(void) {
        struct rlimit rl;

        if (getrlimit(RLIMIT_NOFILE, &rl) >= 0 && rl.rlim_cur < rl.rlim_max && rl.rlim_cur < 8192) {
                rl.rlim_cur = MIN(rl.rlim_max, (rlim_t) 8192);
                (void) setrlimit(RLIMIT_NOFILE, &rl);
        }
}

static int run_server(bool filter) {
        _cleanup_free_ char *types = NULL;
        Listeners l = { .udp_fd = -1, .tcp_fd = -1 };
        DnsServer *server = NULL;
        sd_event *e = NULL;
        RefuseSet refused;
        bool native;
        sigset_t mask;
        char a[SOCKET_ADDRESS_STRING_MAX], b[SOCKET_ADDRESS_STRING_MAX];
        int r;

        if (filter && arg_n_upstreams == 0) {
                log_error("The filter needs at least one --upstream=ADDR[:PORT] (the real DNS servers).");
                return -EINVAL;
        }
        native = systemd_is_native();
        r = load_config(&refused);
        if (r < 0)
                return r;
        r = get_listeners(filter ? UPSTREAM_FILTER_ADDRESS : FRONT_STUB_ADDRESS, &l);
        if (r < 0)
                return r;
        raise_fd_limit();

        sigemptyset(&mask);
        sigaddset(&mask, SIGHUP);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        (void) sigprocmask(SIG_BLOCK, &mask, NULL);

        r = sd_event_default(&e);
        if (r >= 0)
                r = sd_event_add_signal(e, NULL, SIGTERM, NULL, NULL);
        if (r >= 0)
                r = sd_event_add_signal(e, NULL, SIGINT, NULL, NULL);
        if (r >= 0)
                r = sd_event_add_signal(e, NULL, SIGHUP, on_reload, &server);
        if (r >= 0)
                r = dns_server_new(e, &l, &refused, &server);
        if (r >= 0) {
                if (filter) {
                        UpstreamFilterSettings settings = {
                                .upstreams = arg_upstreams,
                                .n_upstreams = arg_n_upstreams,
                                .native = native,
                        };
                        r = upstream_filter_start(server, &settings);
                } else {
                        FrontStubSettings settings = {
                                .resolved = arg_resolved,
                                .resolved_dnssec = arg_resolved_dnssec,
                                .native = native,
                        };
                        r = front_stub_start(server, &settings);
                }
        }
        if (r < 0) {
                dns_server_free(server);
                listeners_close(&l);
                sd_event_unref(e);
                return log_error_errno(r, "Failed to start the %s: %m", filter ? "filter" : "stub");
        }

        types = format_types(&refused);
        if (native)
                log_notice("systemd %d refuses record types and expedites A/AAAA itself: relaying everything.",
                           systemd_version());
        else if (filter)
                log_info("Filtering for resolved: NODATA for RefuseRecordTypes=%s and for A/AAAA 6 s after their "
                         "sibling; forwarding to %s%s.", types ?: "",
                         socket_address_format(&arg_upstreams[0], a, sizeof a), arg_n_upstreams > 1 ? " and others" : "");
        else
                log_info("Refusing RefuseRecordTypes=%s; relaying the rest to %s (DNSSEC queries to %s).", types ?: "",
                         socket_address_format(&arg_resolved, a, sizeof a),
                         socket_address_format(&arg_resolved_dnssec, b, sizeof b));

        (void) sd_notify(false, "READY=1");
        r = sd_event_loop(e);
        (void) sd_notify(false, "STOPPING=1");

        dns_server_free(server);
        sd_event_unref(e);
        return r < 0 ? log_error_errno(r, "Event loop failed: %m") : 0;
}

static void print_json(const RefuseConfig *c, int version) {
        bool first = true;

        putchar('{');
        json_write_key(stdout, "refuseRecordTypes", true);
        putchar('[');
        REFUSE_SET_FOREACH(t, &c->types) {
                printf("%s{\"type\":%d,\"name\":", first ? "" : ",", t);
                json_write_string(stdout, dns_record_type_to_string((uint16_t) t));
                putchar('}');
                first = false;
        }
        putchar(']');
        json_write_key(stdout, "files", false);
        putchar('[');
        for (char **f = c->files; f && *f; f++) {
                if (f != c->files)
                        putchar(',');
                json_write_string(stdout, *f);
        }
        putchar(']');
        json_write_key(stdout, "warnings", false);
        putchar('[');
        for (char **d = c->diagnostics; d && *d; d++) {
                if (d != c->diagnostics)
                        putchar(',');
                json_write_string(stdout, *d);
        }
        putchar(']');
        json_write_key(stdout, "stoppedAt", false);
        json_write_string(stdout, c->error < 0 ? c->error_file : NULL);
        json_write_key(stdout, "systemdVersion", false);
        if (version > 0)
                printf("%d", version);
        else
                fputs("null", stdout);
        json_write_key(stdout, "native", false);
        fputs(version >= SYSTEMD_VERSION_REFUSES_TYPES ? "true" : "false", stdout);
        puts("}");
}

static int verb_show_config(void) {
        _cleanup_free_ char *types = NULL;
        RefuseConfig c;
        int version, r;

        r = refuse_config_load(arg_root, &c);
        if (r < 0)
                return log_oom();
        version = systemd_version();

        if (arg_json)
                print_json(&c, version);
        else {
                types = format_types(&c.types);
                printf("RefuseRecordTypes=%s\n", types ?: "");
                printf("Files:");
                STRV_FOREACH(f, c.files)
                        printf(" %s", *f);
                printf("%s\n", c.files ? "" : " (none)");
                STRV_FOREACH(d, c.diagnostics)
                        printf("Warning: %s\n", *d);
                if (c.error < 0)
                        printf("Stopped reading at %s: %s\n", c.error_file, strerror(-c.error));
                if (version >= SYSTEMD_VERSION_REFUSES_TYPES)
                        printf("systemd %d does this itself; urlboot-resolve only relays.\n", version);
        }
        refuse_config_done(&c);
        return 0;
}

static int add_upstream(const char *s) {
        SocketAddress *n = realloc(arg_upstreams, (arg_n_upstreams + 1) * sizeof(SocketAddress));

        if (!n)
                return log_oom();
        arg_upstreams = n;
        if (socket_address_parse(s, 53, &arg_upstreams[arg_n_upstreams]) < 0)
                return log_usage_error("Invalid --upstream= address '%s' (expected ADDR or ADDR:PORT).", s);
        arg_n_upstreams++;
        return 0;
}

static int parse_address_option(const char *name, const char *value, SocketAddress *ret) {
        if (socket_address_parse(value, 53, ret) < 0)
                return log_usage_error("Invalid %s address '%s' (expected ADDR or ADDR:PORT).", name, value);
        return 0;
}

static int verb_stub(void) {
        return run_server(false);
}

static int verb_filter(void) {
        int r = run_server(true);

        return r == -EINVAL ? -EUSAGE : r;      /* no --upstream= */
}

typedef struct Verb {
        const char *name;
        const CommandTable *table;
        int (*run)(void);       /* -EUSAGE: exit 2 */
} Verb;

static const Verb verbs[] = {
        { "stub", &stub_table, verb_stub },
        { "filter", &filter_table, verb_filter },
        { "show-config", &show_config_table, verb_show_config },
};

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(name, verbs[i].name))
                        return verbs + i;
        return NULL;
}

int main(int argc, char *argv[]) {
        JsonCapture capture;
        const Verb *verb;
        SocketAddress probe;
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 0;

        log_set_program("urlboot-resolve");
        (void) socket_address_parse("127.0.0.53", 53, &arg_resolved);
        (void) socket_address_parse("127.0.0.54", 53, &arg_resolved_dnssec);

        if (option_parser_init(&p, &resolve_table, argc, argv) < 0)
                return log_oom(), EXIT_FAILURE;
        while (r == 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case ARG_ROOT:
                        if (!path_is_absolute(p.argument))
                                r = log_usage_error("--root= needs an absolute path, not '%s'.", p.argument);
                        else
                                arg_root = p.argument;
                        break;
                case ARG_JSON:
                        r = json_format_option(p.argument, &arg_json);
                        break;
                case ARG_LISTEN:
                        r = parse_address_option("--listen=", p.argument, &probe);
                        if (r == 0)
                                arg_listen = p.argument;
                        break;
                case ARG_RESOLVED:
                        r = parse_address_option("--resolved=", p.argument, &arg_resolved);
                        break;
                case ARG_RESOLVED_DNSSEC:
                        r = parse_address_option("--resolved-dnssec=", p.argument, &arg_resolved_dnssec);
                        break;
                case ARG_UPSTREAM:
                        r = add_upstream(p.argument);
                        break;
                case 'h':
                        command_table_help_verb(&resolve_table, argc, argv, stdout);
                        r = 1;
                        break;
                case ARG_VERSION:
                        puts("urlboot-resolve " URLBOOT_VERSION);
                        r = 1;
                        break;
                }
        if (r == 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r != 0) {
                free(arg_upstreams);
                return r > 0 ? EXIT_SUCCESS : r == -ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
        }

        if (nargs == 0) {
                log_error("Expected one command: stub, filter or show-config (see --help).");
                return EXIT_USAGE;
        }
        verb = verb_find(args[0]);
        if (!verb) {
                log_error("Unknown command '%s' (see --help).", args[0]);
                return EXIT_USAGE;
        }
        r = command_table_check_arguments(verb->table, nargs, args);
        if (r < 0)
                return r == -ENOMEM ? EXIT_FAILURE : EXIT_USAGE;

        r = json_capture_begin(&capture, arg_json);
        if (r >= 0) {
                r = verb->run();
                (void) json_capture_end(&capture);
        }
        free(arg_upstreams);
        return r == -EUSAGE ? EXIT_USAGE : r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
