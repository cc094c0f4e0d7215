/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl: urlboot's boot-side tool (building UKIs, and more as it grows).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "loader-vars.h"
#include "manager-build.h"
#include "log.h"
#include "string-util.h"
#include "status.h"
#include "uki-build.h"
#include "uri-entry.h"
#include "verb-event-log.h"
#include "verb-measure.h"
#include "verb-random-seed.h"

#define EXIT_USAGE 2

static void help(void) {
        printf("Usage: urlbootctl COMMAND [OPTIONS]\n"
               "\n"
               "Commands:\n"
               "  status        firmware, boot loader and stub as they reported (incl. network boot URLs)\n"
               "  list          the entries the boot manager would show, in its order\n"
               "  build-uki     assemble a unified kernel image from the urlboot stub and its parts\n"
               "  build-manager build menu entries and loader.conf into the boot manager\n"
               "  measure [UKI] predict the TPM PCRs (11, 12, 13) a boot of the UKI ends with\n"
               "  event-log     replay the firmware's TPM event log and check it against the PCRs\n"
               "  random-seed   set LoaderSystemToken (and the ESP's random seed) for the kernel's seed\n"
               "  set-default, set-oneshot, set-timeout, set-timeout-oneshot\n"
               "                the boot manager's default entry and menu timeout (always or next boot)\n"
               "  add-uri URL   register a boot entry (Boot####) that HTTP-boots URL\n"
               "  remove-uri URL|NNNN\n"
               "                remove such entries\n"
               "\n"
               "Run 'urlbootctl COMMAND --help' for a command's options.\n"
               "  -h --help     this help\n"
               "     --version  print the version\n");
}

int main(int argc, char *argv[]) {
        int r;

        log_set_program("urlbootctl");
        if (argc < 2) {
                log_error("Missing command (see --help).");
                return EXIT_USAGE;
        }
        if (streq(argv[1], "-h") || streq(argv[1], "--help")) {
                help();
                return EXIT_SUCCESS;
        }
        if (streq(argv[1], "--version")) {
                puts("urlbootctl " URLBOOT_VERSION);
                return EXIT_SUCCESS;
        }
        if (streq(argv[1], "status"))
                r = verb_status(argc - 1, argv + 1);
        else if (streq(argv[1], "list"))
                r = verb_list(argc - 1, argv + 1);
        else if (streq(argv[1], "build-uki"))
                r = verb_build_uki(argc - 1, argv + 1);
        else if (streq(argv[1], "set-default") || streq(argv[1], "set-oneshot") || streq(argv[1], "set-timeout") ||
                 streq(argv[1], "set-timeout-oneshot"))
                r = verb_set_loader_variable(argc - 1, argv + 1);
        else if (streq(argv[1], "build-manager"))
                r = verb_build_manager(argc - 1, argv + 1);
        else if (streq(argv[1], "add-uri"))
                r = verb_add_uri(argc - 1, argv + 1);
        else if (streq(argv[1], "remove-uri"))
                r = verb_remove_uri(argc - 1, argv + 1);
        else if (streq(argv[1], "measure"))
                r = verb_measure(argc - 1, argv + 1);
        else if (streq(argv[1], "event-log"))
                r = verb_event_log(argc - 1, argv + 1);
        else if (streq(argv[1], "random-seed"))
                r = verb_random_seed(argc - 1, argv + 1);
        else {
                log_error("Unknown command '%s' (see --help).", argv[1]);
                return EXIT_USAGE;
        }
        return r == -EINVAL ? EXIT_USAGE : r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
