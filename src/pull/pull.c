/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-pull: download a disk image or tarball, verify it while it streams, unpack it in place.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit-status.h"
#include "http-source.h"
#include "image-name.h"
#include "import-types.h"
#include "initrd.h"
#include "libarchive-dl.h"
#include "json-writer.h"
#include "log.h"
#include "mkdir.h"
#include "path-util.h"
#include "parse-size.h"
#include "pull-job.h"
#include "retry-policy.h"
#include "string-util.h"
#include "tls-ca.h"

#define MEMORY_LIMIT_MIN (UINT64_C(1) << 20)
#define MEMORY_DEFAULT_MIN (UINT64_C(128) << 20)
#define MEMORY_DEFAULT_MAX (UINT64_C(1) << 30)

static volatile sig_atomic_t cancelled = 0;

static void help(void) {
        printf("Usage: urlboot-pull [OPTIONS] raw URL [NAME]\n"
               "       urlboot-pull [OPTIONS] tar URL [NAME]\n"
               "\n"
               "Download a raw disk image (to IMAGE_ROOT/NAME.raw, sparse) or a tarball (unpacked\n"
               "into IMAGE_ROOT/NAME/), compressed with xz, zstd, gzip, bzip2 or not at all.\n"
               "NAME defaults to the URL's last component without image suffixes.\n"
               "\n"
               "Options:\n"
               "  --class=CLASS          machine, portable, sysext or confext (default machine)\n"
               "  --image-root=DIR       where images go (default by class: /var/lib/machines,\n"
               "                         in the initrd /run/machines, ...)\n"
               "  --verify=MODE          no, checksum (SHA256SUMS beside the image), signature\n"
               "                         (also SHA256SUMS.gpg), or sha256:HEX / HEX to pin the\n"
               "                         digest of the served file (default signature)\n"
               "  --keyring=FILE         keys for --verify=signature\n"
               "  --mirror=URL           another place to get the same file (repeatable)\n"
               "  --read-only            make the image read-only\n"
               "  --force                replace an existing image\n"
               "  --retries=N            extra attempts per URL on network errors (default 5)\n"
               "  --retry-max-time=SEC   at most this long waiting between them, per URL\n"
               "                         (default 300; a server's Retry-After counts up to 60 s)\n"
               "  --stall-timeout=SEC    give up on a connection idle this long (default 30)\n"
               "  --min-rate=SIZE[:SEC]  give up on a connection slower than SIZE bytes a\n"
               "                         second over SEC seconds (default 1K:30; 0: none)\n"
               "  --threads=N            threads decoding multi-block xz (default: one per CPU)\n"
               "  --memory-limit=SIZE    memory all decoders together may use: xz dictionaries\n"
               "                         (8 MiB a block for xz -6, 64 MiB for -9), the zstd\n"
               "                         window (default: a quarter of RAM, 128M to 1G)\n"
               "  --ca=FILE              trust these CA certificates instead of the system's\n"
               "                         (default: " URLBOOT_TLS_CA_PATH " if it exists)\n"
               "  --allow-http-redirect  follow redirects from https to plain http\n"
               "  --progress=MODE        auto, bar, plain or none (default auto)\n"
               "  --json                 print a JSON report when done\n"
               "  -h --help              this help\n"
               "     --version           print the version\n");
}

static void on_signal(int sig) {
        cancelled = 1;
}

/* A quarter of RAM, within bounds: enough for real images, and a hostile one cannot take more. */
static uint64_t default_memory_budget(void) {
        long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
        uint64_t quarter = pages > 0 && page_size > 0 ? (uint64_t) pages * (uint64_t) page_size / 4 : 0;

        return MIN(MAX(quarter, MEMORY_DEFAULT_MIN), MEMORY_DEFAULT_MAX);
}

static int parse_unsigned(const char *s, unsigned max, unsigned *ret) {
        char *end;
        unsigned long v;

        errno = 0;
        v = strtoul(s, &end, 10);
        if (errno || !*s || *end || v > max || s[0] == '-')
                return -EINVAL;
        *ret = (unsigned) v;
        return 0;
}

/* "SIZE[:SECONDS]": a size a second (K, M suffixes), over a window of 1 to 3600 s. */
static int parse_min_rate(const char *s, HttpLimits *l) {
        _cleanup_free_ char *size = strndup(s, strcspn(s, ":"));
        const char *colon = strchr(s, ':');
        unsigned window = l->min_rate_window;
        uint64_t rate;

        if (!size || parse_size(size, &rate) < 0)
                return -EINVAL;
        if (colon && (parse_unsigned(colon + 1, 3600, &window) < 0 || window == 0))
                return -EINVAL;
        l->min_rate = rate;
        l->min_rate_window = window;
        return 0;
}

static void print_report(const PullReport *r) {
        putchar('{');
        json_write_key(stdout, "url", true);
        json_write_string(stdout, r->url);
        json_write_key(stdout, "path", false);
        json_write_string(stdout, r->path);
        json_write_key(stdout, "bytes", false);
        printf("%llu", (unsigned long long) r->size);
        json_write_key(stdout, "bytesReceived", false);
        printf("%llu", (unsigned long long) r->received);
        json_write_key(stdout, "imageSize", false);
        printf("%llu", (unsigned long long) r->image_size);
        json_write_key(stdout, "seconds", false);
        printf("%.3f", r->seconds);
        json_write_key(stdout, "sha256", false);
        json_write_string(stdout, r->sha256);
        json_write_key(stdout, "compression", false);
        json_write_string(stdout, r->compression);
        json_write_key(stdout, "retries", false);
        printf("%u", r->retries);
        json_write_key(stdout, "restarts", false);
        printf("%u", r->restarts);
        json_write_key(stdout, "resumedAt", false);
        putchar('[');
        for (unsigned i = 0; i < r->n_resumes && i < PULL_RESUMES_MAX; i++)
                printf("%s%llu", i ? "," : "", (unsigned long long) r->resumed_at[i]);
        puts("]}");
}

typedef struct Args {
        PullOptions o;
        ImageClass class;
        const char *image_root;
        bool json;
        char *pinned;
        char **mirrors;
        char *derived_name;             /* NAME when derived from the URL */
        char *resolved_root;            /* the image root, absolute */
} Args;

static int parse_verify(Args *a, const char *v) {
        const char *hex = startswith(v, "sha256:") ?: v;

        char digest[65];

        if (sha256_hex_is_valid(hex) && sha256_hex_normalize(hex, digest) >= 0) {
                free(a->pinned);
                a->pinned = strdup(digest);
                if (!a->pinned)
                        return -ENOMEM;
                a->o.verify = IMPORT_VERIFY_NO;
                return 0;
        }
        if (import_verify_from_string(v) < 0)
                return -EINVAL;
        a->o.verify = import_verify_from_string(v);
        a->pinned = mfree(a->pinned);
        return 0;
}

static int parse_args(int argc, char *argv[], Args *a) {
        enum { ARG_CLASS = 0x100, ARG_IMAGE_ROOT, ARG_VERIFY, ARG_KEYRING, ARG_MIRROR, ARG_READ_ONLY, ARG_FORCE,
               ARG_RETRIES, ARG_RETRY_MAX_TIME, ARG_STALL, ARG_MIN_RATE, ARG_THREADS, ARG_MEMORY_LIMIT, ARG_CA, ARG_ALLOW_HTTP_REDIRECT,
               ARG_PROGRESS, ARG_JSON, ARG_VERSION };
        static const struct option options[] = {
                { "class", required_argument, NULL, ARG_CLASS },
                { "image-root", required_argument, NULL, ARG_IMAGE_ROOT },
                { "verify", required_argument, NULL, ARG_VERIFY },
                { "keyring", required_argument, NULL, ARG_KEYRING },
                { "mirror", required_argument, NULL, ARG_MIRROR },
                { "read-only", no_argument, NULL, ARG_READ_ONLY },
                { "force", no_argument, NULL, ARG_FORCE },
                { "retries", required_argument, NULL, ARG_RETRIES },
                { "retry-max-time", required_argument, NULL, ARG_RETRY_MAX_TIME },
                { "stall-timeout", required_argument, NULL, ARG_STALL },
                { "min-rate", required_argument, NULL, ARG_MIN_RATE },
                { "threads", required_argument, NULL, ARG_THREADS },
                { "memory-limit", required_argument, NULL, ARG_MEMORY_LIMIT },
                { "ca", required_argument, NULL, ARG_CA },
                { "allow-http-redirect", no_argument, NULL, ARG_ALLOW_HTTP_REDIRECT },
                { "progress", required_argument, NULL, ARG_PROGRESS },
                { "json", no_argument, NULL, ARG_JSON },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, ARG_VERSION },
                {},
        };
        int c;

        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case ARG_CLASS:
                        a->class = image_class_from_string(optarg);
                        if (a->class < 0)
                                return log_error_errno(EINVAL, "--class= takes machine, portable, sysext or confext, not '%s'.", optarg);
                        break;
                case ARG_IMAGE_ROOT:
                        a->image_root = optarg;
                        break;
                case ARG_VERIFY:
                        if (parse_verify(a, optarg) < 0)
                                return log_error_errno(EINVAL, "--verify= takes no, checksum, signature or sha256:HEX (64 hex digits), not '%s'.", optarg);
                        break;
                case ARG_KEYRING:
                        a->o.keyring = optarg;
                        break;
                case ARG_MIRROR:
                        if (!import_url_is_valid(optarg))
                                return log_error_errno(EINVAL, "--mirror= needs an http, https or file URL, not '%s'.", optarg);
                        if (strv_extend(&a->mirrors, optarg) < 0)
                                return log_oom();
                        break;
                case ARG_READ_ONLY:
                        a->o.read_only = true;
                        break;
                case ARG_FORCE:
                        a->o.force = true;
                        break;
                case ARG_RETRIES:
                        if (parse_unsigned(optarg, 1000, &a->o.retries) < 0)
                                return log_error_errno(EINVAL, "--retries= takes a number up to 1000, not '%s'.", optarg);
                        break;
                case ARG_RETRY_MAX_TIME:
                        if (parse_unsigned(optarg, 86400, &a->o.retry_wait_total) < 0)
                                return log_error_errno(EINVAL, "--retry-max-time= takes seconds (0 to 86400), not '%s'.", optarg);
                        break;
                case ARG_STALL:
                        if (parse_unsigned(optarg, 86400, &a->o.limits.stall_timeout) < 0 || a->o.limits.stall_timeout == 0)
                                return log_error_errno(EINVAL, "--stall-timeout= takes seconds (1 to 86400), not '%s'.", optarg);
                        break;
                case ARG_MIN_RATE:
                        if (parse_min_rate(optarg, &a->o.limits) < 0)
                                return log_error_errno(EINVAL, "--min-rate= takes a size per second and optionally seconds "
                                                       "(e.g. 1K, 64K:10; 0 for none), not '%s'.", optarg);
                        break;
                case ARG_THREADS:
                        if (parse_unsigned(optarg, 256, &a->o.threads) < 0 || a->o.threads == 0)
                                return log_error_errno(EINVAL, "--threads= takes a number from 1 to 256, not '%s'.", optarg);
                        break;
                case ARG_MEMORY_LIMIT:
                        if (parse_size(optarg, &a->o.memory_budget) < 0 || a->o.memory_budget < MEMORY_LIMIT_MIN)
                                return log_error_errno(EINVAL, "--memory-limit= takes a size of at least 1M (e.g. 256M, 1G), not '%s'.", optarg);
                        break;
                case ARG_CA:
                        a->o.ca_file = optarg;
                        break;
                case ARG_ALLOW_HTTP_REDIRECT:
                        a->o.allow_downgrade = true;
                        break;
                case ARG_PROGRESS:
                        a->o.progress = progress_mode_from_string(optarg);
                        if (a->o.progress < 0)
                                return log_error_errno(EINVAL, "--progress= takes auto, bar, plain or none, not '%s'.", optarg);
                        break;
                case ARG_JSON:
                        a->json = true;
                        break;
                case 'h':
                        help();
                        exit(EXIT_SUCCESS);
                case ARG_VERSION:
                        puts("urlboot-pull " URLBOOT_VERSION);
                        exit(EXIT_SUCCESS);
                default:
                        return -EINVAL;
                }

        if (argc - optind < 2 || argc - optind > 3)
                return log_error_errno(EINVAL, "Expected 'raw URL [NAME]' or 'tar URL [NAME]' (see --help).");
        a->o.type = image_type_from_string(argv[optind]);
        if (a->o.type < 0)
                return log_error_errno(EINVAL, "Unknown image type '%s': use raw or tar.", argv[optind]);
        a->o.url = argv[optind + 1];
        if (!import_url_is_valid(a->o.url))
                return log_error_errno(EINVAL, "'%s' is not an http, https or file URL.", a->o.url);
        a->o.name = argv[optind + 2];
        /* the CA the signed UKI pins (build-uki --ca=) unless the command line names one */
        if (!a->o.ca_file)
                a->o.ca_file = tls_ca_pinned();
        return 0;
}

static void args_done(Args *a) {
        strv_free(a->mirrors);
        free(a->pinned);
        free(a->derived_name);
        free(a->resolved_root);
}

/* NAME, or the one derived from the URL. @ret 0 or -EINVAL (logged) */
static int resolve_name(Args *a) {
        if (a->o.name) {
                if (!image_name_is_valid(a->o.name))
                        return log_error_errno(EINVAL, "'%s' is not a valid image name.", a->o.name);
                return 0;
        }
        if (image_name_from_url(a->o.url, a->o.type == IMAGE_TAR, &a->derived_name) < 0)
                return log_error_errno(EINVAL, "Cannot derive an image name from '%s'; give one as NAME.", a->o.url);
        a->o.name = a->derived_name;
        return 0;
}

/* The image root, created if missing. @ret 0 or negative errno (logged) */
static int prepare_image_root(Args *a) {
        const char *root = a->image_root ?: image_root(a->class, in_initrd());
        int r;

        /* 0700 as systemd keeps /var/lib/machines: images hold setuid binaries and device nodes. */
        r = mkdir_parents(root, 0755);
        if (r >= 0)
                r = mkdir_p(root, 0700);
        if (r < 0)
                return log_error_errno(r, "Failed to create %s: %m", root);
        /* Absolute, for messages and the report (the job itself works on the root's descriptor). */
        a->resolved_root = realpath(root, NULL);
        if (!a->resolved_root)
                return log_error_errno(errno, "Failed to resolve %s: %m", root);
        a->o.image_root = a->resolved_root;
        return 0;
}

/* What the job needs before any byte is fetched: a tarball is useless if it cannot be unpacked. */
static int load_libraries(const Args *a) {
        const char *missing;

        if (a->o.type == IMAGE_TAR && libarchive_load(&missing) < 0)
                return log_error_errno(EOPNOTSUPP, "Cannot unpack tarballs: %s.", missing);
        if (http_global_init() < 0)
                return log_error_errno(EIO, "Failed to initialize libcurl.");
        return 0;
}

int main(int argc, char *argv[]) {
        _cleanup_(args_done) Args a = {
                .o = { .verify = IMPORT_VERIFY_SIGNATURE, .retries = 5, .retry_wait_total = RETRY_WAIT_TOTAL_SEC,
                       .limits = HTTP_LIMITS_DEFAULT, .cancel = &cancelled },
                .class = IMAGE_MACHINE,
        };
        struct sigaction sa = { .sa_handler = on_signal };
        PullReport report;
        char error[1024];
        int r;

        log_set_program("urlboot-pull");
        if (parse_args(argc, argv, &a) < 0 || resolve_name(&a) < 0)
                return EXIT_USAGE;
        a.o.sha256 = a.pinned;
        a.o.mirrors = a.mirrors;
        if (a.o.memory_budget == 0)
                a.o.memory_budget = default_memory_budget();
        if (prepare_image_root(&a) < 0 || load_libraries(&a) < 0)
                return EXIT_FAILURE;

        (void) sigaction(SIGINT, &sa, NULL);
        (void) sigaction(SIGTERM, &sa, NULL);
        r = pull_run(&a.o, &report, error, sizeof error);
        if (r < 0) {
                log_error("%s", error[0] ? error : strerror(-r));
                return EXIT_FAILURE;
        }
        if (a.json)
                print_report(&report);
        else
                log_info("Downloaded %s to %s.", report.url, report.path);
        pull_report_done(&report);
        return EXIT_SUCCESS;
}
