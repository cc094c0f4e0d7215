/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-loop: attach image files to loop devices that carry a reference name.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit-status.h"
#include "json-writer.h"
#include "log.h"
#include "loop-device.h"
#include "path-util.h"
#include "string-util.h"

static void help(void) {
        printf("Usage: urlboot-loop attach [--ref=REF | --ref-auto] [--read-only] [--direct-io=auto|yes|no]\n"
               "                           [--force] FILE\n"
               "       urlboot-loop detach FILE | /dev/loopN\n"
               "       urlboot-loop list [--json]\n"
               "\n"
               "attach prints the loop device. The reference (REF, or with --ref-auto the file's\n"
               "name) is what udev links as /dev/disk/by-loop-ref/REF and REF-partN; a loop disk\n"
               "whose reference is rootdisk or rootdisk.raw provides /dev/gpt-auto-root.\n"
               "\n"
               "  --ref=REF            reference name (at most %d bytes)\n"
               "  --ref-auto           the file's name as reference\n"
               "  --read-only          attach read-only (also when the file is not writable)\n"
               "  --direct-io=MODE     bypass the page cache: auto (where supported), yes, no\n"
               "  --force              attach even if the file is attached already\n"
               "  --json               list as JSON\n"
               "  -h --help            this help\n"
               "     --version         print the version\n",
               LOOP_REF_MAX);
}

typedef struct Args {
        LoopAttachOptions attach;
        bool ref_auto;
        bool json;
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

int main(int argc, char *argv[]) {
        enum { ARG_REF = 0x100, ARG_REF_AUTO, ARG_READ_ONLY, ARG_DIRECT_IO, ARG_FORCE, ARG_JSON, ARG_VERSION };
        static const struct option options[] = {
                { "ref", required_argument, NULL, ARG_REF },
                { "ref-auto", no_argument, NULL, ARG_REF_AUTO },
                { "read-only", no_argument, NULL, ARG_READ_ONLY },
                { "direct-io", required_argument, NULL, ARG_DIRECT_IO },
                { "force", no_argument, NULL, ARG_FORCE },
                { "json", no_argument, NULL, ARG_JSON },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, ARG_VERSION },
                {},
        };
        Args a = {};
        const char *verb;
        int c, r;

        log_set_program("urlboot-loop");

        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case ARG_REF:
                        a.attach.ref = optarg;
                        break;
                case ARG_REF_AUTO:
                        a.ref_auto = true;
                        break;
                case ARG_READ_ONLY:
                        a.attach.read_only = true;
                        break;
                case ARG_DIRECT_IO:
                        if (streq(optarg, "auto"))
                                a.attach.direct_io = DIRECT_IO_AUTO;
                        else if (streq(optarg, "yes"))
                                a.attach.direct_io = DIRECT_IO_YES;
                        else if (streq(optarg, "no"))
                                a.attach.direct_io = DIRECT_IO_NO;
                        else {
                                log_error("--direct-io= takes auto, yes or no, not '%s'.", optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case ARG_FORCE:
                        a.attach.force = true;
                        break;
                case ARG_JSON:
                        a.json = true;
                        break;
                case 'h':
                        help();
                        return EXIT_SUCCESS;
                case ARG_VERSION:
                        puts("urlboot-loop " URLBOOT_VERSION);
                        return EXIT_SUCCESS;
                default:
                        return EXIT_USAGE;
                }

        if (a.ref_auto && a.attach.ref) {
                log_error("--ref= and --ref-auto exclude each other.");
                return EXIT_USAGE;
        }
        if (optind >= argc) {
                log_error("Missing command: attach, detach or list (see --help).");
                return EXIT_USAGE;
        }
        verb = argv[optind++];
        if (streq(verb, "attach") && argc - optind == 1)
                r = verb_attach(&a, argv[optind]);
        else if (streq(verb, "detach") && argc - optind == 1)
                r = verb_detach(argv[optind]);
        else if (streq(verb, "list") && argc == optind)
                r = verb_list(&a);
        else {
                log_error("Unknown command or wrong arguments: '%s' (see --help).", verb);
                return EXIT_USAGE;
        }
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
