/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-loop: attach image files to loop devices that carry a reference name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-table.h"
#include "exit-status.h"
#include "json-format.h"
#include "json-writer.h"
#include "log.h"
#include "loop-device.h"
#include "path-util.h"
#include "string-util.h"

enum { ARG_REF = 0x100, ARG_REF_AUTO, ARG_READ_ONLY, ARG_DIRECT_IO, ARG_FORCE, ARG_JSON, ARG_VERSION };

/* Each row once: urlboot-loop's table has them all, a command's those it uses. */
#define ROW_REF { "ref", 0, ARG_REF, OPTION_REQUIRED, "REF", \
                  "reference name (at most " STRINGIFY(LOOP_REF_MAX) " bytes)", NULL }
#define ROW_REF_AUTO { "ref-auto", 0, ARG_REF_AUTO, OPTION_SWITCH, NULL, "the file's name as reference", NULL }
#define ROW_READ_ONLY { "read-only", 0, ARG_READ_ONLY, OPTION_SWITCH, NULL, \
                        "attach read-only (also when the file is not writable)", NULL }
#define ROW_DIRECT_IO { "direct-io", 0, ARG_DIRECT_IO, OPTION_REQUIRED, "auto|yes|no", \
                        "bypass the page cache: auto (where supported), yes, no", NULL }
#define ROW_FORCE { "force", 0, ARG_FORCE, OPTION_SWITCH, NULL, "attach even if the file is attached already", NULL }
#define ROW_JSON OPTION_ROW_JSON(ARG_JSON, "list as JSON")

/* Options may come before or after the command (getopt moves them to the front), so this table takes
 * them all; a command's table lists those that matter to it (its --help, the completion) and counts its
 * arguments. */
static const OptionRow loop_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        ROW_REF,
        ROW_REF_AUTO,
        ROW_READ_ONLY,
        ROW_DIRECT_IO,
        ROW_FORCE,
        ROW_JSON,
};

static const OptionRow attach_options[] = {
        OPTION_ROW_HELP,
        ROW_REF,
        ROW_REF_AUTO,
        ROW_READ_ONLY,
        ROW_DIRECT_IO,
        ROW_FORCE,
};

static const CommandTable attach_table = {
        .name = "urlboot-loop attach",
        .arguments = "FILE",
        .summary = "Attach FILE to a loop device and print the device. The reference (REF, or with\n"
                   "--ref-auto the file's name) is what udev links as /dev/disk/by-loop-ref/REF and\n"
                   "REF-partN; a loop disk whose reference is rootdisk or rootdisk.raw provides\n"
                   "/dev/gpt-auto-root.",
        .options = attach_options,
        .n_options = ELEMENTSOF(attach_options),
        .min_arguments = 1,
        .max_arguments = 1,
        .complete_arguments = "file",
};

static const OptionRow detach_options[] = {
        OPTION_ROW_HELP,
};

static const CommandTable detach_table = {
        .name = "urlboot-loop detach",
        .arguments = "FILE|/dev/loopN",
        .summary = "Remove the partitions and release the device, or every device backed by FILE.\n"
                   "Detaching what is not attached succeeds.",
        .options = detach_options,
        .n_options = ELEMENTSOF(detach_options),
        .min_arguments = 1,
        .max_arguments = 1,
        .complete_arguments = "file",
};

static const OptionRow list_options[] = {
        OPTION_ROW_HELP,
        ROW_JSON,
};

static const CommandTable list_table = {
        .name = "urlboot-loop list",
        .summary = "Show every attached device with its reference, read-only state, partition count\n"
                   "and backing file.",
        .options = list_options,
        .n_options = ELEMENTSOF(list_options),
};

static const CommandTable loop_table = {
        .name = "urlboot-loop",
        .arguments = "COMMAND [ARGUMENTS...]",
        .summary = "Attach image files to loop devices that carry a reference name:\n"
                   "  attach [--ref=REF | --ref-auto] [--read-only] [--direct-io=auto|yes|no] [--force] FILE\n"
                   "  detach FILE | /dev/loopN\n"
                   "  list [--json]\n"
                   "\n"
                   "attach prints the loop device. The reference (REF, or with --ref-auto the file's\n"
                   "name) is what udev links as /dev/disk/by-loop-ref/REF and REF-partN; a loop disk\n"
                   "whose reference is rootdisk or rootdisk.raw provides /dev/gpt-auto-root.\n"
                   "\n"
                   "Run 'urlboot-loop COMMAND --help' for the options that matter to a command.",
        .options = loop_options,
        .n_options = ELEMENTSOF(loop_options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "verbs",
        .verbs = (const CommandTable *const []) { &attach_table, &detach_table, &list_table, NULL },
};

typedef struct Args {
        LoopAttachOptions attach;
        bool ref_auto;
        JsonFormat json;
} Args;

static int verb_attach(Args *a, const char *file) {
        _cleanup_free_ char *ref = NULL, *device = NULL;
        bool read_only;
        int r;

        if (a->ref_auto) {
                r = path_extract_filename(file, &ref);
                if (r < 0)
                        return log_error_errno(r, "Cannot take a reference from '%s': %m", file);
                a->attach.ref = ref;
        }
        if (a->attach.ref && strlen(a->attach.ref) > LOOP_REF_MAX) {
                log_error("The reference '%s' is %zu bytes long; a loop device takes at most %d. Use a shorter "
                          "--ref= (or file name with --ref-auto).",
                          a->attach.ref, strlen(a->attach.ref), LOOP_REF_MAX);
                return -ENAMETOOLONG;
        }
        if (a->attach.ref && !loop_ref_is_valid(a->attach.ref)) {
                log_error("The reference '%s' has control characters or is not UTF-8; udev could not name a link "
                          "after it. Use another --ref= (or file name with --ref-auto).", a->attach.ref);
                return -EINVAL;
        }

        r = loop_attach(file, &a->attach, &device, &read_only);
        if (r == -EEXIST)
                return log_error_errno(r, "%s is attached to a loop device already (see 'urlboot-loop list'); "
                                       "use --force to attach it again.", file);
        if (r == -EOPNOTSUPP)
                return log_error_errno(r, "The file system of %s does not support direct I/O; use --direct-io=auto.",
                                       file);
        if (r < 0)
                return log_error_errno(r, "Failed to attach %s to a loop device: %m", file);

        puts(device);
        if (read_only && !a->attach.read_only)
                log_info("%s is not writable: attached read-only.", file);
        return 0;
}

static int verb_detach(const char *what) {
        int r = loop_detach(what);

        if (r < 0)
                return log_error_errno(r, "Failed to detach %s: %m", what);
        if (r == 0)
                log_debug("%s is not attached; nothing to do.", what);
        return 0;
}

static int verb_list(const Args *a) {
        LoopInfo *list;
        int n = loop_list(&list);

        if (n < 0)
                return log_error_errno(n, "Failed to list loop devices: %m");

        if (a->json) {
                JsonCapture capture;

                if (json_capture_begin(&capture, a->json) < 0) {
                        free(list);
                        return log_oom();
                }
                putchar('[');
                for (int i = 0; i < n; i++) {
                        printf("%s{", i ? "," : "");
                        json_write_key(stdout, "device", true);
                        json_write_string(stdout, list[i].device);
                        json_write_key(stdout, "backingFile", false);
                        json_write_string(stdout, list[i].backing);
                        json_write_key(stdout, "reference", false);
                        json_write_string(stdout, list[i].ref);
                        json_write_key(stdout, "readOnly", false);
                        fputs(list[i].read_only ? "true" : "false", stdout);
                        json_write_key(stdout, "directIO", false);
                        fputs(list[i].direct_io ? "true" : "false", stdout);
                        json_write_key(stdout, "partitions", false);
                        printf("%u}", list[i].n_partitions);
                }
                puts("]");
                (void) json_capture_end(&capture);
        } else {
                if (n > 0)
                        printf("%-12s %-24s %-3s %-5s %s\n", "DEVICE", "REFERENCE", "RO", "PARTS", "BACKING FILE");
                for (int i = 0; i < n; i++)
                        printf("%-12s %-24s %-3s %-5u %s\n", list[i].device, list[i].ref[0] ? list[i].ref : "-",
                               list[i].read_only ? "yes" : "no", list[i].n_partitions, list[i].backing);
        }
        free(list);
        return 0;
}

/* One option (its id in the tables above) with its value v (NULL for a switch). @ret 0 or -EUSAGE (logged) */
static int apply_option(Args *a, int id, const char *v) {
        switch (id) {
        case ARG_REF:
                a->attach.ref = v;
                break;
        case ARG_REF_AUTO:
                a->ref_auto = true;
                break;
        case ARG_READ_ONLY:
                a->attach.read_only = true;
                break;
        case ARG_DIRECT_IO:
                if (streq(v, "auto"))
                        a->attach.direct_io = DIRECT_IO_AUTO;
                else if (streq(v, "yes"))
                        a->attach.direct_io = DIRECT_IO_YES;
                else if (streq(v, "no"))
                        a->attach.direct_io = DIRECT_IO_NO;
                else
                        return log_usage_error("--direct-io= takes auto, yes or no, not '%s'.", v);
                break;
        case ARG_FORCE:
                a->attach.force = true;
                break;
        case ARG_JSON:
                return json_format_option(v, &a->json);
        default:
                return -EUSAGE;
        }
        return 0;
}

typedef struct Verb {
        const char *name;
        const CommandTable *table;
} Verb;

static const Verb verbs[] = {
        { "attach", &attach_table },
        { "detach", &detach_table },
        { "list", &list_table },
};

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(name, verbs[i].name))
                        return verbs + i;
        return NULL;
}

/*
 * The options (urlboot-loop's table) into a, the command and its arguments in *ret_argc, *ret_argv.
 * @ret 0, 1 after --help or --version, -EUSAGE (logged), -ENOMEM
 */
static int parse_args(int argc, char *argv[], Args *a, int *ret_argc, char ***ret_argv) {
        OptionParser p;
        int c, r = 0;

        if (option_parser_init(&p, &loop_table, argc, argv) < 0)
                return log_oom();
        while (r == 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        command_table_help_verb(&loop_table, argc, argv, stdout);
                        r = 1;
                        break;
                case ARG_VERSION:
                        puts("urlboot-loop " URLBOOT_VERSION);
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
        const Verb *verb;
        char **args;
        int nargs, r;
        Args a = {};

        log_set_program("urlboot-loop");
        r = parse_args(argc, argv, &a, &nargs, &args);
        if (r != 0)
                return r > 0 ? EXIT_SUCCESS : r == -EUSAGE ? EXIT_USAGE : EXIT_FAILURE;
        if (a.ref_auto && a.attach.ref) {
                log_error("--ref= and --ref-auto exclude each other.");
                return EXIT_USAGE;
        }
        if (nargs == 0) {
                log_error("Missing command: attach, detach or list (see --help).");
                return EXIT_USAGE;
        }
        verb = verb_find(args[0]);
        if (!verb) {
                log_error("Unknown command '%s' (see --help).", args[0]);
                return EXIT_USAGE;
        }
        r = command_table_check_arguments(verb->table, nargs, args);
        if (r < 0)
                return r == -EUSAGE ? EXIT_USAGE : EXIT_FAILURE;
        if (verb->table == &attach_table)
                r = verb_attach(&a, args[1]);
        else if (verb->table == &detach_table)
                r = verb_detach(args[1]);
        else
                r = verb_list(&a);
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
