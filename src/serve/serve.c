/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-serve: a booted machine serves its boot to the next (systemd's storagetm idea, over HTTP): the UKI it
 * booted, the boot manager, the images its pull expressions pulled, and disks it is told to, read-only.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "boot-origin.h"
#include "catalog.h"
#include "client-allow.h"
#include "command-table.h"
#include "exit-status.h"
#include "fileio.h"
#include "http-source.h"
#include "log.h"
#include "macro.h"
#include "parse-size.h"
#include "serve-http.h"
#include "socket-address.h"
#include "string-util.h"

#define LISTEN_MAX 8
#define ALLOW_MAX 64
#define REFRESH_SECONDS 5

typedef struct Args {
        SocketAddress listen[LISTEN_MAX];
        size_t n_listen;
        ClientNetwork allow[ALLOW_MAX];
        size_t n_allow;
        const char *tls_cert, *tls_key;
        ServeLimits limits;
        CatalogOptions catalog;
        char *run_dir;
} Args;

enum { ARG_LISTEN = 0x100, ARG_ALLOW, ARG_TLS_CERT, ARG_TLS_KEY, ARG_BOOT_MANAGER, ARG_DISK, ARG_NO_BOOT,
       ARG_MAX_CONNECTIONS, ARG_PER_CLIENT, ARG_IDLE_TIMEOUT, ARG_MAX_SECONDS, ARG_RATE, ARG_RUN_DIR, ARG_VERSION };

static const OptionRow serve_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        { "listen", 0, ARG_LISTEN, OPTION_REQUIRED, "ADDRESS:PORT",
          "where to listen (repeatable; no default: never every interface)", NULL },
        { "allow", 0, ARG_ALLOW, OPTION_REQUIRED, "NETWORK",
          "clients that may connect: 10.0.3.0/24, fd00::/8, a host, or \"any\"\n"
          "(repeatable; no default: every other client is refused)", NULL },
        { "tls-cert", 0, ARG_TLS_CERT, OPTION_REQUIRED, "FILE",
          "HTTPS with this certificate (PEM) and --tls-key=FILE; without, HTTP", "file" },
        { "tls-key", 0, ARG_TLS_KEY, OPTION_REQUIRED, "FILE", "its private key (PEM)", "file" },
        { "boot-manager", 0, ARG_BOOT_MANAGER, OPTION_REQUIRED, "FILE",
          "the boot manager to serve at LoaderDeviceURL's path", "file" },
        { "disk", 0, ARG_DISK, OPTION_REQUIRED, "FILE[=PATH]",
          "serve a disk or image file read-only at PATH (default /disk/NAME)", "file" },
        { "no-boot", 0, ARG_NO_BOOT, OPTION_SWITCH, NULL, "serve only the --disk= ones, not this machine's boot",
          NULL },
        { "max-connections", 0, ARG_MAX_CONNECTIONS, OPTION_REQUIRED, "N", "connections in all (default 64)", NULL },
        { "per-client", 0, ARG_PER_CLIENT, OPTION_REQUIRED, "N", "connections from one address (default 8)", NULL },
        { "idle-timeout", 0, ARG_IDLE_TIMEOUT, OPTION_REQUIRED, "SEC",
          "close a connection silent this long (default 30)", NULL },
        { "max-seconds", 0, ARG_MAX_SECONDS, OPTION_REQUIRED, "SEC",
          "stop an answer that takes longer (default 0: no limit)", NULL },
        { "rate", 0, ARG_RATE, OPTION_REQUIRED, "BYTES",
          "one answer's bytes per second, with K, M, G (default 0: no limit)", NULL },
        { "run-dir", 0, ARG_RUN_DIR, OPTION_REQUIRED, "DIR", "where /run's files are (default /run)", "dir" },
};

static const CommandTable serve_table = {
        .name = "urlboot-serve",
        .summary = "Serve this machine's boot to other machines over HTTP(S), read-only: the UKI it booted (as it\n"
                   "booted), the boot manager, the images its pull expressions pulled, each at the URL path it came\n"
                   "from, so that a machine booting through this one needs no change to its UKI. And disks, when told.\n"
                   "--listen=ADDRESS:PORT and --allow=NETWORK are required.",
        .options = serve_options,
        .n_options = ELEMENTSOF(serve_options),
};

static int parse_unsigned(const char *opt, const char *v, unsigned max, unsigned *ret) {
        char *end;
        unsigned long u;

        errno = 0;
        u = strtoul(v, &end, 10);
        if (errno || *end || !*v || *v == '-' || u > max) {
                log_error("--%s= takes a number from 0 to %u, not '%s'.", opt, max, v);
                return -EINVAL;
        }
        *ret = (unsigned) u;
        return 0;
}

/* One option (its id in serve_options) with its value v (NULL for a switch). @ret 0, -EINVAL (logged), -ENOMEM */
static int apply_option(Args *a, int id, const char *v) {
        int r;

        switch (id) {
        case ARG_LISTEN:
                if (a->n_listen >= LISTEN_MAX || socket_address_parse(v, 0, &a->listen[a->n_listen]) < 0) {
                        log_error("--listen= takes ADDRESS:PORT ([ADDRESS]:PORT for IPv6; at most %d), not '%s'.",
                                  LISTEN_MAX, v);
                        return -EINVAL;
                }
                a->n_listen++;
                break;
        case ARG_ALLOW:
                r = a->n_allow + 2 <= ALLOW_MAX ? client_network_parse(v, a->allow + a->n_allow) : -E2BIG;
                if (r < 0) {
                        log_error("--allow= takes a network (10.0.3.0/24, fd00::/8), an address or \"any\", not '%s'.",
                                  v);
                        return -EINVAL;
                }
                a->n_allow += (size_t) r;
                break;
        case ARG_TLS_CERT:
                a->tls_cert = v;
                break;
        case ARG_TLS_KEY:
                a->tls_key = v;
                break;
        case ARG_BOOT_MANAGER:
                a->catalog.boot_manager = v;
                break;
        case ARG_DISK:
                if (strv_extend(&a->catalog.disks, v) < 0)
                        return log_oom();
                break;
        case ARG_NO_BOOT:
                a->catalog.boot = false;
                break;
        case ARG_MAX_CONNECTIONS:
                return parse_unsigned("max-connections", v, 4096, &a->limits.max_connections);
        case ARG_PER_CLIENT:
                return parse_unsigned("per-client", v, 4096, &a->limits.per_client);
        case ARG_IDLE_TIMEOUT:
                return parse_unsigned("idle-timeout", v, 86400, &a->limits.idle_timeout);
        case ARG_MAX_SECONDS:
                return parse_unsigned("max-seconds", v, 864000, &a->limits.max_seconds);
        case ARG_RATE:
                if (parse_size(v, &a->limits.rate) < 0) {
                        log_error("--rate= takes bytes per second (with K, M, G), not '%s'.", v);
                        return -EINVAL;
                }
                break;
        case ARG_RUN_DIR:
                free(a->run_dir);
                a->run_dir = strdup(v);
                if (!a->run_dir)
                        return log_oom();
                break;
        default:
                return -EINVAL;
        }
        return 0;
}

/* @ret 1: serve, 0: done (--help, --version), negative: a usage error (logged) */
static int parse_args(int argc, char *argv[], Args *a) {
        OptionParser p;
        char **args;
        int nargs, c, r = 0;

        if (option_parser_init(&p, &serve_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0) {
                if (c == 'h' || c == ARG_VERSION) {
                        if (c == 'h')
                                command_table_help(&serve_table, stdout);
                        else
                                puts("urlboot-serve " URLBOOT_VERSION);
                        option_parser_done(&p);
                        return 0;
                }
                r = apply_option(a, c, p.argument);
                if (r < 0)
                        break;
        }
        if (r >= 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (a->n_listen == 0 || a->n_allow == 0) {
                log_error("Say where to listen (--listen=ADDRESS:PORT) and whom to serve (--allow=NETWORK): "
                          "urlboot-serve has no default for either.");
                return -EINVAL;
        }
        if (!a->tls_cert != !a->tls_key) {
                log_error("--tls-cert= and --tls-key= go together.");
                return -EINVAL;
        }
        if (!a->catalog.boot && !a->catalog.disks) {
                log_error("--no-boot and no --disk=: nothing to serve.");
                return -EINVAL;
        }
        return 1;
}

static char *run_path(const Args *a, const char *sub) {
        char *s = NULL;

        return asprintf(&s, "%s/%s", a->run_dir ?: "/run", sub) < 0 ? NULL : s;
}

/* Until SIGTERM or SIGINT; meanwhile what was not ready (a lazy copy) is looked at again. */
static void wait_for_signal(Catalog *catalog, const CatalogOptions *o) {
        sigset_t set;

        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGINT);
        for (;;) {
                int s = sigtimedwait(&set, NULL, &(struct timespec) { .tv_sec = REFRESH_SECONDS });

                if (s == SIGTERM || s == SIGINT)
                        return;
                catalog_refresh(catalog, o);
        }
}

static void args_done(Args *a) {
        a->catalog.disks = strv_free(a->catalog.disks);
        a->run_dir = mfree(a->run_dir);
}

int main(int argc, char *argv[]) {
        Args a = {
                .limits = { .max_connections = 64, .per_client = 8, .idle_timeout = 30 },
                .catalog = { .boot = true },
        };
        _cleanup_free_ char *cert = NULL, *key = NULL, *cache = NULL, *machines = NULL, *keep = NULL, *lazy = NULL;
        HttpServer *servers[LISTEN_MAX] = {};
        BootOrigin origin = {};
        Catalog catalog = {};
        sigset_t set;
        int r;

        log_set_program("urlboot-serve");
        r = parse_args(argc, argv, &a);
        if (r <= 0) {
                args_done(&a);
                return r < 0 ? EXIT_USAGE : EXIT_SUCCESS;
        }
        if ((a.tls_cert && read_full_file(a.tls_cert, 1 << 20, &cert, NULL) < 0) ||
            (a.tls_key && read_full_file(a.tls_key, 1 << 20, &key, NULL) < 0)) {
                log_error("Cannot read %s: give a PEM certificate and its key.", cert ? a.tls_key : a.tls_cert);
                args_done(&a);
                return EXIT_FAILURE;
        }
        cache = run_path(&a, "urlboot-serve");
        machines = run_path(&a, "machines");
        keep = run_path(&a, "urlboot/downloads");
        lazy = run_path(&a, "urlboot/lazy");
        if (!cache || !machines || !keep || !lazy || http_global_init() < 0) {
                r = log_oom();
                goto finish;
        }
        a.catalog.cache_dir = cache;
        a.catalog.machines_dir = machines;
        a.catalog.keep_dir = keep;
        a.catalog.lazy_dir = lazy;

        (void) boot_origin_load(&origin);
        r = catalog_build(&catalog, &a.catalog, &origin);
        if (r < 0)
                goto finish;
        if (r == 0)
                log_warning("Nothing to serve yet: every request is answered 404.");

        /* the signals are for sigtimedwait() above, not for the server's threads */
        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGINT);
        sigprocmask(SIG_BLOCK, &set, NULL);
        signal(SIGPIPE, SIG_IGN);
        for (size_t i = 0; i < a.n_listen; i++) {
                ServeConfig config = {
                        .listen_size = a.listen[i].len,
                        .tls_cert_pem = cert,
                        .tls_key_pem = key,
                        .allow = a.allow,
                        .n_allow = a.n_allow,
                        .limits = a.limits,
                        .catalog = &catalog,
                };
                char where[SOCKET_ADDRESS_STRING_MAX];

                memcpy(&config.listen, &a.listen[i].sa, a.listen[i].len);
                socket_address_format(&a.listen[i], where, sizeof where);
                r = serve_http_start(&config, &servers[i]);
                if (r < 0) {
                        log_error("Cannot listen on %s (in use, or not an address of this machine?).", where);
                        goto finish;
                }
                log_info("Listening on %s (%s).", where, cert ? "https" : "http");
        }
        (void) sd_notifyf(false, "READY=1\nSTATUS=Serving %zu resources", catalog.n);
        wait_for_signal(&catalog, &a.catalog);
        (void) sd_notify(false, "STOPPING=1");
        r = 0;
finish:
        for (size_t i = 0; i < a.n_listen; i++)
                serve_http_stop(servers[i]);
        catalog_done(&catalog);
        boot_origin_done(&origin);
        args_done(&a);
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
