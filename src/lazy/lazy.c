/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-lazy: boot from a disk image before its download ends (attach, status, check-verity, serve), and
 * make the seekable .zst it reads fastest (compress).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-table.h"
#include "error-buf.h"
#include "exit-status.h"
#include "initrd.h"
#include "json-format.h"
#include "json-writer.h"
#include "keep-unit.h"
#include "lazy-attach.h"
#include "lazy-compress.h"
#include "lazy-state.h"
#include "lazy-status.h"
#include "log.h"
#include "macro.h"
#include "nbdkit-command.h"
#include "parse-size.h"
#include "path-util.h"
#include "progress.h"
#include "string-util.h"
#include "tls-ca.h"
#include "verity-check.h"

enum { ARG_ROOTHASH = 0x100, ARG_USRHASH, ARG_NO_VERITY, ARG_UNIT, ARG_CONNECTIONS, ARG_REQUEST_SIZE, ARG_COPY_NOW,
       ARG_RETRIES, ARG_RETRY_DELAY, ARG_TIMEOUT, ARG_STATE_DIR, ARG_CA, ARG_RECORD, ARG_JSON, ARG_VERSION, ARG_LEVEL,
       ARG_FRAME_SIZE };

/* Each row once: urlboot-lazy's table has them all, a command's those it uses. */
#define ROW_ROOTHASH { "roothash", 0, ARG_ROOTHASH, OPTION_REQUIRED, "HEX", \
                       "the root file system's verity root hash", NULL }
#define ROW_USRHASH { "usrhash", 0, ARG_USRHASH, OPTION_REQUIRED, "HEX", \
                      "the /usr file system's verity root hash", NULL }
#define ROW_NO_VERITY { "no-verity", 0, ARG_NO_VERITY, OPTION_SWITCH, NULL, \
                        "attach without a pinned hash (verify=no)", NULL }
#define ROW_CONNECTIONS { "connections", 0, ARG_CONNECTIONS, OPTION_REQUIRED, "N", \
                          "the kernel's NBD connections for the boot's reads (default " \
                          STRINGIFY(LAZY_CONNECTIONS_DEFAULT) ")", NULL }
#define ROW_REQUEST_SIZE { "request-size", 0, ARG_REQUEST_SIZE, OPTION_REQUIRED, "SIZE", \
                           "largest request to the network (default 1M)", NULL }
#define ROW_COPY_NOW { "copy-now", 0, ARG_COPY_NOW, OPTION_SWITCH, NULL, \
                       "copy at once (default: in the initrd, once the root is mounted)", NULL }
#define ROW_UNIT { "unit", 0, ARG_UNIT, OPTION_REQUIRED, "NAME", \
                   "the unit to keep for the real root's systemd (the generator passes %n)", NULL }
#define ROW_RETRIES { "retries", 0, ARG_RETRIES, OPTION_REQUIRED, "N", \
                      "tries of one HTTP request before a read fails (default " STRINGIFY(NBDKIT_RETRIES_DEFAULT) ")", \
                      NULL }
#define ROW_RETRY_DELAY { "retry-delay", 0, ARG_RETRY_DELAY, OPTION_REQUIRED, "SEC", \
                          "seconds between tries (default " STRINGIFY(NBDKIT_RETRY_DELAY_DEFAULT) ")", NULL }
#define ROW_TIMEOUT { "timeout", 0, ARG_TIMEOUT, OPTION_REQUIRED, "SEC", \
                      "seconds for one HTTP request (default " STRINGIFY(NBDKIT_TIMEOUT_DEFAULT) ")", NULL }
#define ROW_STATE_DIR { "state-dir", 0, ARG_STATE_DIR, OPTION_REQUIRED, "DIR", \
                        "where state files are (default " LAZY_STATE_DIR ")", "dir" }
#define ROW_CA { "ca", 0, ARG_CA, OPTION_REQUIRED, "FILE", \
                 "the CA (PEM) an https server must have a certificate from\n" \
                 "(default " URLBOOT_TLS_CA_PATH " when it exists, else the system's)", "file" }
#define ROW_RECORD { "record", 0, ARG_RECORD, OPTION_REQUIRED, "FILE", \
                     "list the blocks read there, each once (attach: STATE-DIR/NAME.reads)", "file" }
#define ROW_JSON OPTION_ROW_JSON(ARG_JSON, "status as JSON")
#define ROW_JSON_COMPRESS OPTION_ROW_JSON(ARG_JSON, "the result as JSON")
#define ROW_LEVEL { "level", 0, ARG_LEVEL, OPTION_REQUIRED, "N", \
                    "zstd's compression level (1 to 22, default " STRINGIFY(LAZY_COMPRESS_LEVEL_DEFAULT) ")", NULL }
#define ROW_FRAME_SIZE { "frame-size", 0, ARG_FRAME_SIZE, OPTION_REQUIRED, "SIZE", \
                         "the image bytes in one frame, the unit a read decodes\n" \
                         "(default 1M, at most 64M, in whole 4K)", NULL }

/* Options may come before or after the command (getopt moves them to the front), so this table takes
 * them all; a command's table lists those that matter to it (its --help, the completion) and counts its
 * arguments. */
static const OptionRow lazy_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        ROW_ROOTHASH,
        ROW_USRHASH,
        ROW_NO_VERITY,
        ROW_CONNECTIONS,
        ROW_REQUEST_SIZE,
        ROW_COPY_NOW,
        ROW_UNIT,
        ROW_RETRIES,
        ROW_RETRY_DELAY,
        ROW_TIMEOUT,
        ROW_STATE_DIR,
        ROW_CA,
        ROW_RECORD,
        ROW_JSON,
        ROW_LEVEL,
        ROW_FRAME_SIZE,
};

static const OptionRow attach_options[] = {
        OPTION_ROW_HELP,
        ROW_ROOTHASH,
        ROW_USRHASH,
        ROW_NO_VERITY,
        ROW_CONNECTIONS,
        ROW_REQUEST_SIZE,
        ROW_COPY_NOW,
        ROW_UNIT,
        ROW_RETRIES,
        ROW_RETRY_DELAY,
        ROW_TIMEOUT,
        ROW_STATE_DIR,
        ROW_CA,
};

static const CommandTable attach_table = {
        .name = "urlboot-lazy attach",
        .arguments = "URL IMAGE",
        .summary = "Serve the disk image at URL as a block device at once (nbdkit, nbd) and copy it to\n"
                   "IMAGE (e.g. /run/machines/rootdisk.raw) in the background over a second NBD\n"
                   "connection, holes and all-zero blocks left out. The device is a loop device whose\n"
                   "reference is IMAGE's file name, as urlboot-loop makes them. It keeps running, also\n"
                   "across the switch to the real root, until the copy is complete; then it serves IMAGE\n"
                   "alone and the network is no longer needed. The image must carry the verity partitions\n"
                   "--roothash=/--usrhash= name (dm-verity checks every block), unless --no-verity.",
        .options = attach_options,
        .n_options = ELEMENTSOF(attach_options),
        .min_arguments = 2,
        .max_arguments = 2,
};

static const OptionRow status_options[] = {
        OPTION_ROW_HELP,
        ROW_JSON,
        ROW_STATE_DIR,
};

static const CommandTable status_table = {
        .name = "urlboot-lazy status",
        .arguments = "[NAME...]",
        .summary = "Show each lazy disk (or those named): copying or local, progress, bytes fetched, timeline.",
        .options = status_options,
        .n_options = ELEMENTSOF(status_options),
        .max_arguments = ARGUMENTS_ANY,
};

static const OptionRow check_verity_options[] = {
        OPTION_ROW_HELP,
        ROW_ROOTHASH,
        ROW_USRHASH,
};

static const CommandTable check_verity_table = {
        .name = "urlboot-lazy check-verity",
        .arguments = "DISK",
        .summary = "Check DISK (a device or an image file) against the pinned hashes.",
        .options = check_verity_options,
        .n_options = ELEMENTSOF(check_verity_options),
        .min_arguments = 1,
        .max_arguments = 1,
        .complete_arguments = "file",
};

static const OptionRow serve_options[] = {
        OPTION_ROW_HELP,
        ROW_RETRIES,
        ROW_RETRY_DELAY,
        ROW_TIMEOUT,
        ROW_CA,
        ROW_RECORD,
};

static const CommandTable serve_table = {
        .name = "urlboot-lazy serve",
        .arguments = "URL SOCKET",
        .summary = "Run nbdkit on SOCKET as attach does, in the foreground (tests, debugging).",
        .options = serve_options,
        .n_options = ELEMENTSOF(serve_options),
        .min_arguments = 2,
        .max_arguments = 2,
};

static const OptionRow compress_options[] = {
        OPTION_ROW_HELP,
        ROW_LEVEL,
        ROW_FRAME_SIZE,
        ROW_JSON_COMPRESS,
};

static const CommandTable compress_table = {
        .name = "urlboot-lazy compress",
        .arguments = "IMAGE OUTPUT",
        .summary = "Write the raw disk image IMAGE to OUTPUT as a seekable zstd file: frames of\n"
                   "--frame-size= compressed on their own (all CPUs at once), then a seek table, so that\n"
                   "attach decodes only the frames a read needs. OUTPUT appears complete or not at all\n"
                   "(an existing file is replaced).",
        .options = compress_options,
        .n_options = ELEMENTSOF(compress_options),
        .min_arguments = 2,
        .max_arguments = 2,
        .complete_arguments = "file",
};

static const CommandTable lazy_table = {
        .name = "urlboot-lazy",
        .arguments = "COMMAND [ARGUMENTS...]",
        .summary = "Boot from a disk image before its download ends:\n"
                   "  attach [OPTIONS...] [--roothash=HEX] [--usrhash=HEX | --no-verity] URL IMAGE\n"
                   "  status [--json] [NAME...]\n"
                   "  check-verity [--roothash=HEX] [--usrhash=HEX] DISK\n"
                   "  serve [OPTIONS...] URL SOCKET\n"
                   "  compress [--level=N] [--frame-size=SIZE] [--json] IMAGE OUTPUT\n"
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
                   "compress writes a raw disk image as a seekable zstd file (frames and a seek table),\n"
                   "which attach reads in place, decoding only the frames a read needs.\n"
                   "\n"
                   "Run 'urlboot-lazy COMMAND --help' for the options that matter to a command.",
        .options = lazy_options,
        .n_options = ELEMENTSOF(lazy_options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "verbs",
        .verbs = (const CommandTable *const []) { &attach_table, &status_table, &check_verity_table, &serve_table,
                                                    &compress_table, NULL },
};

typedef struct Args {
        LazyOptions lazy;
        LazyCompressSettings compress;
        JsonFormat json;
        const char *serve_record;       /* serve --record= */
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

/* One option (its id in the tables above) with its value v (NULL for a switch). */
static int apply_option(Args *a, int id, const char *v) {
        switch (id) {
        case ARG_ROOTHASH:
        case ARG_USRHASH:
                if (!hash_is_valid(v)) {
                        log_error("--%s= takes a lowercase hexadecimal hash of 128 to 512 bits, not '%s'.",
                                  id == ARG_ROOTHASH ? "roothash" : "usrhash", v);
                        return -EINVAL;
                }
                *(id == ARG_ROOTHASH ? &a->lazy.roothash : &a->lazy.usrhash) = v;
                break;
        case ARG_NO_VERITY:
                a->lazy.no_verity = true;
                break;
        case ARG_UNIT:
                if (!lazy_keep_unit_name_valid(v)) {
                        log_error("--unit= takes a service's name (NAME.service), not '%s'.", v);
                        return -EINVAL;
                }
                a->lazy.unit = v;
                break;
        case ARG_CONNECTIONS:
                if (parse_unsigned("connections", v, &a->lazy.connections) < 0)
                        return -EINVAL;
                if (a->lazy.connections < 1 || a->lazy.connections > 16) {
                        log_error("--connections= takes 1 to 16, not %s.", v);
                        return -EINVAL;
                }
                break;
        case ARG_REQUEST_SIZE:
                if (parse_size(v, &a->lazy.request_size) < 0 || a->lazy.request_size < 64 * 1024 ||
                    a->lazy.request_size > 32 * 1024 * 1024 || a->lazy.request_size % 4096 != 0) {
                        log_error("--request-size= takes 64K to 32M in whole 4K, not '%s'.", v);
                        return -EINVAL;
                }
                break;
        case ARG_COPY_NOW:
                a->lazy.copy_now = true;
                break;
        case ARG_RETRIES:
                return parse_unsigned("retries", v, &a->lazy.retries);
        case ARG_RETRY_DELAY:
                return parse_unsigned("retry-delay", v, &a->lazy.retry_delay);
        case ARG_TIMEOUT:
                return parse_unsigned("timeout", v, &a->lazy.timeout);
        case ARG_STATE_DIR:
                a->lazy.state_dir = v;
                break;
        case ARG_CA:
                a->lazy.ca_file = v;
                break;
        case ARG_RECORD:
                a->serve_record = v;
                break;
        case ARG_JSON:
                return json_format_option(v, &a->json);
        case ARG_LEVEL: {
                unsigned level;

                if (parse_unsigned("level", v, &level) < 0)
                        return -EINVAL;
                if (level < 1 || level > (unsigned) lazy_compress_level_max()) {
                        log_error("--level= takes 1 to %d, not %s.", lazy_compress_level_max(), v);
                        return -EINVAL;
                }
                a->compress.level = (int) level;
                break;
        }
        case ARG_FRAME_SIZE:
                if (parse_size(v, &a->compress.frame_size) < 0 ||
                    !lazy_compress_frame_size_valid(a->compress.frame_size)) {
                        log_error("--frame-size= takes 4K to 64M in whole 4K, not '%s'.", v);
                        return -EINVAL;
                }
                break;
        default:
                return -EINVAL;
        }
        return 0;
}

static int verb_attach(Args *a, int argc, char *argv[]) {
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

        s.url = argv[0];
        s.socket = argv[1];
        s.record = a->serve_record;
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

static int verb_status(Args *a, int argc, char *argv[]) {
        JsonCapture capture;
        int r = json_capture_begin(&capture, a->json);

        if (r < 0)
                return log_oom();
        r = lazy_status_show(a->lazy.state_dir, "/", argc > 0 ? argv : NULL, a->json != JSON_FORMAT_OFF);
        (void) json_capture_end(&capture);

        if (r < 0)
                return log_error_errno(r, "Failed to read %s: %m", a->lazy.state_dir);
        if (r == 0 && !a->json)
                puts("No lazy disks.");
        return 0;
}

/* A terminal's progress bar while compress runs; nothing elsewhere. */
static void compress_progress(uint64_t done, uint64_t total, void *userdata) {
        progress_update(userdata, done, (int64_t) total);
}

static void compress_print(const char *output, const LazyCompressSettings *s, const LazyCompressResult *res,
                           JsonFormat json) {
        char frame[32], compressed[32], image[32], allocated[32];
        JsonCapture capture;

        if (json == JSON_FORMAT_OFF) {
                printf("%s: %" PRIu32 " frame%s of %s, %s from %s (%s allocated).\n", output, res->frames,
                       res->frames == 1 ? "" : "s", format_bytes(frame, sizeof frame, s->frame_size),
                       format_bytes(compressed, sizeof compressed, res->compressed_bytes),
                       format_bytes(image, sizeof image, res->image_bytes),
                       format_bytes(allocated, sizeof allocated, res->allocated_bytes));
                return;
        }
        if (json_capture_begin(&capture, json) < 0) {
                (void) log_oom();
                return;
        }
        putchar('{');
        json_write_key(stdout, "output", true);
        json_write_string(stdout, output);
        printf(",\"frames\":%" PRIu32 ",\"frameSize\":%" PRIu64 ",\"compressedBytes\":%" PRIu64
               ",\"imageBytes\":%" PRIu64 ",\"allocatedBytes\":%" PRIu64 ",\"level\":%d}\n",
               res->frames, s->frame_size, res->compressed_bytes, res->image_bytes, res->allocated_bytes, s->level);
        (void) json_capture_end(&capture);
}

static int verb_compress(Args *a, int argc, char *argv[]) {
        char error[ERROR_BUF_MIN * 2] = "";
        LazyCompressResult res;
        Progress *progress;
        _cleanup_free_ char *name = NULL;
        int r;

        r = path_extract_filename(argv[0], &name);
        if (r < 0)
                return log_error_errno(r, "Cannot compress '%s': %m", argv[0]);
        progress = progress_new(isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_NONE, "Compressing", name);
        if (!progress)
                return log_oom();
        a->compress.progress = compress_progress;
        a->compress.userdata = progress;
        r = lazy_compress(argv[0], argv[1], &a->compress, &res, error, sizeof error);
        progress_free(progress);
        if (r < 0) {
                log_error("Cannot compress %s: %s.", argv[0], error[0] ? error : strerror(-r));
                return -EIO;
        }
        compress_print(argv[1], &a->compress, &res, a->json);
        return 0;
}

typedef struct Verb {
        const char *name;
        const CommandTable *table;
        int (*run)(Args *a, int argc, char *argv[]);    /* argv: the command's arguments, NULL-terminated */
} Verb;

static const Verb verbs[] = {
        { "attach", &attach_table, verb_attach },
        { "status", &status_table, verb_status },
        { "check-verity", &check_verity_table, verb_check_verity },
        { "serve", &serve_table, verb_serve },
        { "compress", &compress_table, verb_compress },
};

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(name, verbs[i].name))
                        return verbs + i;
        return NULL;
}

/*
 * The options (urlboot-lazy's table) into a, the command and its arguments in *ret_argc, *ret_argv.
 * @ret 0, 1 after --help or --version, -EUSAGE or -EINVAL (logged), -ENOMEM
 */
static int parse_args(int argc, char *argv[], Args *a, int *ret_argc, char ***ret_argv) {
        OptionParser p;
        int c, r = 0;

        if (option_parser_init(&p, &lazy_table, argc, argv) < 0)
                return log_oom();
        while (r == 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        command_table_help_verb(&lazy_table, argc, argv, stdout);
                        r = 1;
                        break;
                case ARG_VERSION:
                        puts("urlboot-lazy " URLBOOT_VERSION);
                        r = 1;
                        break;
                default:
                        r = apply_option(a, c, p.argument);
                }
        if (r == 0)
                r = c < 0 ? c : option_parser_arguments(&p, ret_argc, ret_argv);
        option_parser_done(&p);
        return r;
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
                .compress = {
                        .frame_size = LAZY_COMPRESS_FRAME_SIZE_DEFAULT,
                        .level = LAZY_COMPRESS_LEVEL_DEFAULT,
                },
        };
        const Verb *verb;
        char **args;
        int nargs, r;

        log_set_program("urlboot-lazy");
        r = parse_args(argc, argv, &a, &nargs, &args);
        if (r != 0)
                return r > 0 ? EXIT_SUCCESS : r == -ENOMEM ? EXIT_FAILURE : EXIT_USAGE;
        if (nargs == 0) {
                log_error("Missing command: attach, status, check-verity, serve or compress (see --help).");
                return EXIT_USAGE;
        }
        verb = verb_find(args[0]);
        if (!verb) {
                log_error("Unknown command '%s' (see --help).", args[0]);
                return EXIT_USAGE;
        }
        r = command_table_check_arguments(verb->table, nargs, args);
        if (r == 0)
                r = verb->run(&a, nargs - 1, args + 1);
        if (r == -EINVAL || r == -EUSAGE)
                return EXIT_USAGE;
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
