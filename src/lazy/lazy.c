/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-lazy: boot from a disk image before its download ends (attach, status, check-verity).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error-buf.h"
#include "exit-status.h"
#include "initrd.h"
#include "keep-unit.h"
#include "lazy-attach.h"
#include "lazy-state.h"
#include "lazy-status.h"
#include "log.h"
#include "macro.h"
#include "nbdkit-command.h"
#include "parse-size.h"
#include "string-util.h"
#include "tls-ca.h"
#include "verity-check.h"

static void help(void) {
        printf("Usage: urlboot-lazy attach [OPTIONS] [--roothash=HEX] [--usrhash=HEX | --no-verity] URL IMAGE\n"
               "       urlboot-lazy status [--json] [NAME...]\n"
               "       urlboot-lazy check-verity [--roothash=HEX] [--usrhash=HEX] DISK\n"
               "       urlboot-lazy serve URL SOCKET\n"
               "\n"
               "attach serves the disk image at URL as a block device at once (nbdkit, nbd) and copies\n"
               "it to IMAGE (e.g. /run/machines/rootdisk.raw) in the background over a second NBD\n"
               "connection, holes and all-zero blocks left out. The device is a loop device whose\n"
               "reference is IMAGE's file name, as urlboot-loop makes them. It keeps running, also\n"
               "across the switch to the real root, until the copy is complete; then it serves IMAGE\n"
               "alone and the network is no longer needed. The image must carry the verity partitions\n"
               "roothash=/usrhash= name (dm-verity checks every block), unless --no-verity.\n"
               "\n"
               "status shows each lazy disk: copying or local, progress, bytes fetched, timeline.\n"
               "check-verity checks DISK (a device or an image file) against the pinned hashes.\n"
               "serve runs nbdkit on SOCKET as attach does, in the foreground (tests, debugging).\n"
               "\n"
               "  --roothash=HEX       the root file system's verity root hash\n"
               "  --usrhash=HEX        the /usr file system's verity root hash\n"
               "  --no-verity          attach without a pinned hash (verify=no)\n"
               "  --connections=N      the kernel's NBD connections for the boot's reads (default %u)\n"
               "  --request-size=SIZE  largest request to the network (default 1M)\n"
               "  --copy-now           copy at once (default: in the initrd, once the root is mounted)\n"
               "  --unit=NAME          the unit to keep for the real root's systemd (the generator passes %%n)\n"
               "  --retries=N          tries of one HTTP request before a read fails (default %u)\n"
               "  --retry-delay=SEC    seconds between tries (default %u)\n"
               "  --timeout=SEC        seconds for one HTTP request (default %u)\n"
               "  --state-dir=DIR      where state files are (default " LAZY_STATE_DIR ")\n"
               "  --ca=FILE            the CA (PEM) an https server must have a certificate from\n"
               "                       (default " URLBOOT_TLS_CA_PATH " when it exists, else the system's)\n"
               "  --json               status as JSON\n"
               "  -h --help            this help\n"
               "     --version         print the version\n",
               LAZY_CONNECTIONS_DEFAULT, NBDKIT_RETRIES_DEFAULT, NBDKIT_RETRY_DELAY_DEFAULT, NBDKIT_TIMEOUT_DEFAULT);
}

typedef struct Args {
        LazyOptions lazy;
        bool json;
} Args;

static bool hash_is_valid(const char *s) {
        size_t n = strlen(s);

        return n >= 32 && n <= 128 && n % 2 == 0 && strspn(s, "0123456789abcdef") == n;
}

static int parse_unsigned(const char *opt, const char *v, unsigned *ret) {
        char *end;
        unsigned long u;

        errno = 0;
        u = strtoul(v, &end, 10);
        if (errno || *end || !*v || *v == '-' || u > 1000000) {
                log_error("--%s= takes a number, not '%s'.", opt, v);
                return -EINVAL;
        }
        *ret = (unsigned) u;
        return 0;
}

static int parse_args(int argc, char *argv[], Args *a) {
        enum { ARG_ROOTHASH = 0x100, ARG_USRHASH, ARG_NO_VERITY, ARG_UNIT, ARG_CONNECTIONS, ARG_REQUEST_SIZE, ARG_COPY_NOW,
               ARG_RETRIES, ARG_RETRY_DELAY, ARG_TIMEOUT, ARG_STATE_DIR, ARG_CA, ARG_JSON, ARG_VERSION };
        static const struct option options[] = {
                { "roothash", required_argument, NULL, ARG_ROOTHASH },
                { "usrhash", required_argument, NULL, ARG_USRHASH },
                { "no-verity", no_argument, NULL, ARG_NO_VERITY },
                { "unit", required_argument, NULL, ARG_UNIT },
                { "connections", required_argument, NULL, ARG_CONNECTIONS },
                { "request-size", required_argument, NULL, ARG_REQUEST_SIZE },
                { "copy-now", no_argument, NULL, ARG_COPY_NOW },
                { "retries", required_argument, NULL, ARG_RETRIES },
                { "retry-delay", required_argument, NULL, ARG_RETRY_DELAY },
                { "timeout", required_argument, NULL, ARG_TIMEOUT },
                { "state-dir", required_argument, NULL, ARG_STATE_DIR },
                { "ca", required_argument, NULL, ARG_CA },
                { "json", no_argument, NULL, ARG_JSON },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, ARG_VERSION },
                {},
        };
        int c;

        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case ARG_ROOTHASH:
                case ARG_USRHASH:
                        if (!hash_is_valid(optarg)) {
                                log_error("--%s= takes a lowercase hexadecimal hash of 128 to 512 bits, not '%s'.",
                                          c == ARG_ROOTHASH ? "roothash" : "usrhash", optarg);
                                return -EINVAL;
                        }
                        *(c == ARG_ROOTHASH ? &a->lazy.roothash : &a->lazy.usrhash) = optarg;
                        break;
                case ARG_NO_VERITY:
                        a->lazy.no_verity = true;
                        break;
                case ARG_UNIT:
                        if (!lazy_keep_unit_name_valid(optarg)) {
                                log_error("--unit= takes a service's name (NAME.service), not '%s'.", optarg);
                                return -EINVAL;
                        }
                        a->lazy.unit = optarg;
                        break;
                case ARG_CONNECTIONS:
                        if (parse_unsigned("connections", optarg, &a->lazy.connections) < 0)
                                return -EINVAL;
                        if (a->lazy.connections < 1 || a->lazy.connections > 16) {
                                log_error("--connections= takes 1 to 16, not %s.", optarg);
                                return -EINVAL;
                        }
                        break;
                case ARG_REQUEST_SIZE:
                        if (parse_size(optarg, &a->lazy.request_size) < 0 || a->lazy.request_size < 64 * 1024 ||
                            a->lazy.request_size > 32 * 1024 * 1024 || a->lazy.request_size % 4096 != 0) {
                                log_error("--request-size= takes 64K to 32M in whole 4K, not '%s'.", optarg);
                                return -EINVAL;
                        }
                        break;
                case ARG_COPY_NOW:
                        a->lazy.copy_now = true;
                        break;
                case ARG_RETRIES:
                        if (parse_unsigned("retries", optarg, &a->lazy.retries) < 0)
                                return -EINVAL;
                        break;
                case ARG_RETRY_DELAY:
                        if (parse_unsigned("retry-delay", optarg, &a->lazy.retry_delay) < 0)
                                return -EINVAL;
                        break;
                case ARG_TIMEOUT:
                        if (parse_unsigned("timeout", optarg, &a->lazy.timeout) < 0)
                                return -EINVAL;
                        break;
                case ARG_STATE_DIR:
                        a->lazy.state_dir = optarg;
                        break;
                case ARG_CA:
                        a->lazy.ca_file = optarg;
                        break;
                case ARG_JSON:
                        a->json = true;
                        break;
                case 'h':
                        help();
                        exit(EXIT_SUCCESS);
                case ARG_VERSION:
                        puts("urlboot-lazy " URLBOOT_VERSION);
                        exit(EXIT_SUCCESS);
                default:
                        return -EINVAL;
                }
        return 0;
}

static int verb_attach(Args *a, int argc, char *argv[]) {
        if (argc != 2) {
                log_error("attach takes a URL and an image path (see --help).");
                return -EINVAL;
        }
        a->lazy.url = argv[0];
        a->lazy.image = argv[1];
        if (!a->lazy.roothash && !a->lazy.usrhash && !a->lazy.no_verity) {
                log_error("Without --roothash= or --usrhash=, nothing would verify %s; pass --no-verity to attach it "
                          "unverified.", a->lazy.url);
                return -EINVAL;
        }
        if ((a->lazy.roothash || a->lazy.usrhash) && a->lazy.no_verity) {
                log_error("--no-verity and a pinned hash exclude each other.");
                return -EINVAL;
        }
        if (a->lazy.image[0] != '/' || !endswith(a->lazy.image, ".raw")) {
                log_error("The image path must be absolute and end in .raw, not '%s'.", a->lazy.image);
                return -EINVAL;
        }
        /* Storage for the root: systemd's killing sprees (switch to the real root, shutdown) spare it. */
        if (in_initrd())
                program_invocation_name[0] = '@';
        else
                a->lazy.copy_now = true;
        signal(SIGPIPE, SIG_IGN);
        return lazy_attach(&a->lazy) < 0 ? -EIO : 0;
}

static int verb_check_verity(Args *a, int argc, char *argv[]) {
        const VerityPin pins[] = { { "roothash", a->lazy.roothash }, { "usrhash", a->lazy.usrhash } };
        char reason[ERROR_BUF_MIN * 2] = "";
        int r;

        if (argc != 1) {
                log_error("check-verity takes one disk (see --help).");
                return -EINVAL;
        }
        if (!a->lazy.roothash && !a->lazy.usrhash) {
                log_error("check-verity needs --roothash= or --usrhash=.");
                return -EINVAL;
        }
        r = verity_check_disk(argv[0], pins, ELEMENTSOF(pins), NULL, reason, sizeof reason);
        if (r < 0) {
                log_error("%s: %s.", argv[0], reason[0] ? reason : strerror(-r));
                return -EIO;
        }
        printf("%s carries %d pinned verity tree%s.\n", argv[0], r, r == 1 ? "" : "s");
        return 0;
}

static int verb_serve(Args *a, int argc, char *argv[]) {
        NbdkitSettings s = {
                .retries = a->lazy.retries,
                .retry_delay = a->lazy.retry_delay,
                .timeout = a->lazy.timeout,
                .plugin = a->lazy.plugin,
        };
        _cleanup_strv_free_ char **cmd = NULL;
        int r;

        if (argc != 2) {
                log_error("serve takes a URL and a socket path (see --help).");
                return -EINVAL;
        }
        s.url = argv[0];
        s.socket = argv[1];
        if (startswith(s.url, "https://"))
                s.cainfo = a->lazy.ca_file;
        r = nbdkit_command(&s, &cmd);
        if (r < 0)
                return log_error_errno(r, "Cannot serve '%s': %m", s.url);
        /* The same command line, but nbdkit takes our place (no parent to outlive). */
        for (char **from = cmd, **to = cmd;; from++)
                if (!*from || !streq(*from, "--exit-with-parent")) {
                        if (!(*to++ = *from))
                                break;
                } else
                        free(*from);
        execv(a->lazy.nbdkit, cmd);
        return log_error_errno(errno, "Cannot run %s: %m", a->lazy.nbdkit);
}

int main(int argc, char *argv[]) {
        Args a = {
                .lazy = {
                        .connections = LAZY_CONNECTIONS_DEFAULT,
                        .request_size = LAZY_REQUEST_SIZE_DEFAULT,
                        .retries = NBDKIT_RETRIES_DEFAULT,
                        .retry_delay = NBDKIT_RETRY_DELAY_DEFAULT,
                        .timeout = NBDKIT_TIMEOUT_DEFAULT,
                        .nbdkit = getenv("URLBOOT_NBDKIT") ?: NBDKIT_PATH,
                        .plugin = getenv("URLBOOT_NBDKIT_PLUGIN") ?: URLBOOT_NBDKIT_PLUGIN_PATH,
                        .nbd_client = getenv("URLBOOT_NBD_CLIENT") ?: NBD_CLIENT_PATH,
                        .state_dir = LAZY_STATE_DIR,
                        .ca_file = tls_ca_pinned(),
                },
        };
        const char *verb;
        int r;

        log_set_program("urlboot-lazy");
        if (parse_args(argc, argv, &a) < 0)
                return EXIT_USAGE;
        if (optind >= argc) {
                log_error("Missing command: attach, status or check-verity (see --help).");
                return EXIT_USAGE;
        }
        verb = argv[optind++];
        if (streq(verb, "attach"))
                r = verb_attach(&a, argc - optind, argv + optind);
        else if (streq(verb, "check-verity"))
                r = verb_check_verity(&a, argc - optind, argv + optind);
        else if (streq(verb, "serve"))
                r = verb_serve(&a, argc - optind, argv + optind);
        else if (streq(verb, "status")) {
                r = lazy_status_show(a.lazy.state_dir, "/", optind < argc ? argv + optind : NULL, a.json);
                if (r < 0)
                        log_error_errno(r, "Failed to read %s: %m", a.lazy.state_dir);
                else if (r == 0 && !a.json)
                        puts("No lazy disks.");
        } else {
                log_error("Unknown command '%s' (see --help).", verb);
                return EXIT_USAGE;
        }
        if (r == -EINVAL)
                return EXIT_USAGE;
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
