/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-pull: download a disk image or tarball, verify it while it streams, unpack it in place.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-table.h"
#include "exit-status.h"
#include "http-source.h"
#include "image-name.h"
#include "import-types.h"
#include "initrd.h"
#include "libarchive-dl.h"
#include "json-format.h"
#include "json-writer.h"
#include "log.h"
#include "mkdir.h"
#include "path-util.h"
#include "parse-size.h"
#include "pull-job.h"
#include "pull-option.h"
#include "retry-policy.h"
#include "string-util.h"
#include "tls-ca.h"

#define MEMORY_LIMIT_MIN (UINT64_C(1) << 20)
#define MEMORY_DEFAULT_MIN (UINT64_C(128) << 20)
#define MEMORY_DEFAULT_MAX (UINT64_C(1) << 30)

static volatile sig_atomic_t cancelled = 0;

enum { ARG_VERSION = 0x100, ARG_TABLE };    /* pull_options[i] is ARG_TABLE + i */

/* -h --help, --version, then pull_options' rows (pull-option.h), filled in by main() */
static OptionRow pull_rows[2 + _PULL_OPTION_MAX] = { OPTION_ROW_HELP, OPTION_ROW_VERSION(ARG_VERSION) };

static const CommandTable pull_table = {
        .name = "urlboot-pull",
        .arguments = "raw|tar URL [NAME]",
        .summary = "Download a raw disk image (to IMAGE_ROOT/NAME.raw, sparse) or a tarball (unpacked\n"
                   "into IMAGE_ROOT/NAME/), compressed with xz, zstd, gzip, bzip2 or not at all.\n"
                   "NAME defaults to the URL's last component without image suffixes.",
        .options = pull_rows,
        .n_options = ELEMENTSOF(pull_rows),
        .min_arguments = 2,
        .max_arguments = 3,
        .complete_arguments = "words:raw tar",
};

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
        JsonFormat json;
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

/* One option from the table (pull-option.h) with its value v (NULL for a switch). */
static int apply_option(Args *a, PullOptionId id, const char *v) {
        switch (id) {
        case PULL_OPTION_CLASS:
                a->class = image_class_from_string(v);
                if (a->class < 0)
                        return log_error_errno(EINVAL, "--class= takes machine, portable, sysext or confext, not '%s'.", v);
                break;
        case PULL_OPTION_IMAGE_ROOT:
                a->image_root = v;
                break;
        case PULL_OPTION_VERIFY:
                if (parse_verify(a, v) < 0)
                        return log_error_errno(EINVAL, "--verify= takes no, checksum, signature or sha256:HEX (64 hex digits), not '%s'.", v);
                break;
        case PULL_OPTION_KEYRING:
                a->o.keyring = v;
                break;
        case PULL_OPTION_MIRROR:
                if (!import_url_is_valid(v))
                        return log_error_errno(EINVAL, "--mirror= needs an http, https or file URL, not '%s'.", v);
                if (strv_extend(&a->mirrors, v) < 0)
                        return log_oom();
                break;
        case PULL_OPTION_READ_ONLY:
                a->o.read_only = true;
                break;
        case PULL_OPTION_FORCE:
                a->o.force = true;
                break;
        case PULL_OPTION_RETRIES:
                if (parse_unsigned(v, 1000, &a->o.retries) < 0)
                        return log_error_errno(EINVAL, "--retries= takes a number up to 1000, not '%s'.", v);
                break;
        case PULL_OPTION_RETRY_MAX_TIME:
                if (parse_unsigned(v, 86400, &a->o.retry_wait_total) < 0)
                        return log_error_errno(EINVAL, "--retry-max-time= takes seconds (0 to 86400), not '%s'.", v);
                break;
        case PULL_OPTION_STALL_TIMEOUT:
                if (parse_unsigned(v, 86400, &a->o.limits.stall_timeout) < 0 || a->o.limits.stall_timeout == 0)
                        return log_error_errno(EINVAL, "--stall-timeout= takes seconds (1 to 86400), not '%s'.", v);
                break;
        case PULL_OPTION_MIN_RATE:
                if (parse_min_rate(v, &a->o.limits) < 0)
                        return log_error_errno(EINVAL, "--min-rate= takes a size per second and optionally seconds "
                                               "(e.g. 1K, 64K:10; 0 for none), not '%s'.", v);
                break;
        case PULL_OPTION_THREADS:
                if (parse_unsigned(v, 256, &a->o.threads) < 0 || a->o.threads == 0)
                        return log_error_errno(EINVAL, "--threads= takes a number from 1 to 256, not '%s'.", v);
                break;
        case PULL_OPTION_MEMORY_LIMIT:
                if (parse_size(v, &a->o.memory_budget) < 0 || a->o.memory_budget < MEMORY_LIMIT_MIN)
                        return log_error_errno(EINVAL, "--memory-limit= takes a size of at least 1M (e.g. 256M, 1G), not '%s'.", v);
                break;
        case PULL_OPTION_CA:
                a->o.ca_file = v;
                break;
        case PULL_OPTION_ALLOW_HTTP_REDIRECT:
                a->o.allow_downgrade = true;
                break;
        case PULL_OPTION_KEEP_DOWNLOAD:
                if (v[0] != '/')
                        return log_error_errno(EINVAL, "--keep-download= takes an absolute path, not '%s'.", v);
                a->o.keep_download = v;
                break;
        case PULL_OPTION_PROGRESS:
                a->o.progress = progress_mode_from_string(v);
                if (a->o.progress < 0)
                        return log_error_errno(EINVAL, "--progress= takes auto, bar, plain or none, not '%s'.", v);
                break;
        case PULL_OPTION_JSON:
                return json_format_option(v, &a->json);
        default:
                return -EINVAL;
        }
        return 0;
}

/* @ret 0, 1 after --help or --version, negative errno after a usage error (logged) */
static int parse_args(int argc, char *argv[], Args *a) {
        OptionParser p;
        char **args;
        int nargs, c, r = 0;

        if (option_parser_init(&p, &pull_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0) {
                if (c == 'h' || c == ARG_VERSION) {
                        if (c == 'h')
                                command_table_help(&pull_table, stdout);
                        else
                                puts("urlboot-pull " URLBOOT_VERSION);
                        option_parser_done(&p);
                        return 1;
                }
                r = apply_option(a, (PullOptionId) (c - ARG_TABLE), p.argument);
                if (r < 0)
                        break;
        }
        if (r >= 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;

        a->o.type = image_type_from_string(args[0]);
        if (a->o.type < 0)
                return log_error_errno(EINVAL, "Unknown image type '%s': use raw or tar.", args[0]);
        a->o.url = args[1];
        if (!import_url_is_valid(a->o.url))
                return log_error_errno(EINVAL, "'%s' is not an http, https or file URL.", a->o.url);
        a->o.name = nargs > 2 ? args[2] : NULL;
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
        pull_option_rows(pull_rows + 2, ARG_TABLE);
        r = parse_args(argc, argv, &a);
        if (r > 0)
                return EXIT_SUCCESS;
        if (r < 0 || resolve_name(&a) < 0)
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
        if (a.json) {
                JsonCapture capture;

                if (json_capture_begin(&capture, a.json) >= 0) {
                        print_report(&report);
                        (void) json_capture_end(&capture);
                } else
                        print_report(&report);
        } else
                log_info("Downloaded %s to %s.", report.url, report.path);
        pull_report_done(&report);
        return EXIT_SUCCESS;
}
