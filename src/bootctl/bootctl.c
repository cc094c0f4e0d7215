/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl: urlboot's boot-side tool (building UKIs, and more as it grows).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-table.h"
#include "exit-status.h"
#include "json-format.h"
#include "pager.h"
#include "log.h"
#include "string-util.h"
#include "verb-build-manager.h"
#include "verb-build-uki.h"
#include "verb-chid.h"
#include "verb-event-log.h"
#include "verb-keys.h"
#include "verb-list.h"
#include "verb-loader-vars.h"
#include "verb-measure.h"
#include "verb-random-seed.h"
#include "verb-rollout.h"
#include "verb-status.h"
#include "verb-uri.h"

/* One row per command: the dispatch and the help text come from the same table, so they cannot drift. Each
 * verb parses its options, loads what it needs, runs, and returns a negative errno (-EUSAGE: a usage error), 0,
 * or 1 for a "no" that is an answer, not a failure (exit status 1 without a message: rollout is-trial). */
typedef struct Verb {
        const char *name;
        const char *synopsis;   /* NULL: listed under the previous row's text */
        const char *summary;
        int (*run)(int argc, char *argv[], const void *data);
        const void *data;       /* handed to run(): one function can serve several rows */
        bool pager;             /* prints data: through a pager on a terminal (unless --no-pager) */
        const CommandTable *table;      /* its options and arguments */
} Verb;

static int verb_help(int argc, char *argv[], const void *data);

static const OptionRow help_options[] = {
        OPTION_ROW_HELP,
};

/* help takes no options; its arguments have always been ignored */
static const CommandTable verb_help_table = {
        .name = "urlbootctl help",
        .summary = "Show urlbootctl's commands and its global options.",
        .options = help_options,
        .n_options = ELEMENTSOF(help_options),
        .max_arguments = ARGUMENTS_ANY,
};

/* The options every verb takes, handled here before the verb sees its arguments. */
static const OptionRow urlbootctl_options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(0x100),
        { "no-pager", 0, 0x101, OPTION_SWITCH, NULL, "do not pipe long output into a pager", NULL },
        { "json", 0, 0x102, OPTION_REQUIRED, "pretty|short|off",
          "JSON output of the commands that print data (--json: short)", NULL },
};

static const CommandTable urlbootctl_table = {
        .name = "urlbootctl",
        .arguments = "[COMMAND]",
        .options = urlbootctl_options,
        .n_options = ELEMENTSOF(urlbootctl_options),
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "verbs",
};

static const Verb verbs[] = {
        { "status", "status", "firmware, boot loader and stub as they reported (incl. network boot URLs)", verb_status, NULL, true,
          &verb_status_table },
        { "list", "list", "the entries the boot manager would show, in its order", verb_list, NULL, true,
          &verb_list_table },
        { "build-uki", "build-uki", "assemble a unified kernel image from the urlboot stub and its parts", verb_build_uki, NULL, false,
          &verb_build_uki_table },
        { "build-manager", "build-manager", "build menu entries and loader.conf into the boot manager",
          verb_build_manager, NULL, false, &verb_build_manager_table },
        { "measure", "measure [UKI]", "predict the TPM PCRs (11, 12, 13) a boot of the UKI ends with", verb_measure, NULL, true,
          &verb_measure_table },
        { "event-log", "event-log", "replay the firmware's TPM event log and check it against the PCRs",
          verb_event_log, NULL, true, &verb_event_log_table },
        { "chid", "chid", "this machine's CHIDs, as the stub matches a UKI's .hwids with them", verb_chid, NULL, true,
          &verb_chid_table },
        { "random-seed", "random-seed", "set LoaderSystemToken (and the ESP's random seed) for the kernel's seed",
          verb_random_seed, NULL, false, &verb_random_seed_table },
        { "set-default", "set-default, set-oneshot, set-timeout, set-timeout-oneshot",
          "the boot manager's default entry and menu timeout (always or next boot)", verb_set_loader_variable,
          &loader_variable_default, false, &verb_set_default_table },
        { "set-oneshot", NULL, NULL, verb_set_loader_variable, &loader_variable_oneshot, false,
          &verb_set_oneshot_table },
        { "set-timeout", NULL, NULL, verb_set_loader_variable, &loader_variable_timeout, false,
          &verb_set_timeout_table },
        { "set-timeout-oneshot", NULL, NULL, verb_set_loader_variable, &loader_variable_timeout_oneshot, false,
          &verb_set_timeout_oneshot_table },
        { "add-uri", "add-uri URL", "register a boot entry (Boot####) that HTTP-boots URL", verb_add_uri, NULL, false,
          &verb_add_uri_table },
        { "remove-uri", "remove-uri URL|NNNN", "remove such entries", verb_remove_uri, NULL, false,
          &verb_remove_uri_table },
        { "enroll-mok", "enroll-mok CERT... --vars-file=FILE", "trust a key through shim in a VM's variable store (MokList)",
          verb_enroll_mok, NULL, false, &verb_enroll_mok_table },
        { "tls-ca", "tls-ca CERT...", "the firmware's HTTPS CA list: a VM's variable store, QEMU's fw_cfg file",
          verb_tls_ca, NULL, false, &verb_tls_ca_table },
        { "rollout", "rollout [show|bless|reset ID|reset-generation|is-trial]",
          "a rollout's versions: their state, blessing this boot", verb_rollout, NULL, true, &verb_rollout_table },
        { "help", "help", "this help", verb_help, NULL, true, &verb_help_table },
};

static const Verb *verb_find(const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(verbs[i].name, name))
                        return verbs + i;
        return NULL;
}

static void help(void) {
        printf("Usage: urlbootctl [OPTIONS...] [COMMAND] ...\n\nCommands (none: status):\n");
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++) {
                const Verb *v = verbs + i;

                if (!v->synopsis)
                        continue;
                /* a synopsis too long for the column gets the summary on the next line */
                if (strlen(v->synopsis) <= 13)
                        printf("  %-13s %s\n", v->synopsis, v->summary);
                else
                        printf("  %s\n                %s\n", v->synopsis, v->summary);
        }
        printf("\nOptions (run 'urlbootctl COMMAND --help' for a command's own):\n");
        command_table_help_options(&urlbootctl_table, stdout);
}

static int verb_help(int argc, char *argv[], const void *data) {
        OptionParser p;
        char **args;
        int nargs, c, r;

        if (option_parser_init(&p, &verb_help_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                if (c == 'h') {
                        option_parser_done(&p);
                        return command_table_help(&verb_help_table, stdout);
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        help();
        return 0;
}

/* The options of every verb, taken here once: --no-pager, and --json=pretty|short|off as systemd's tools
 * take it: the verbs know a plain --json (compact), so "short" becomes that, "off" disappears, and
 * "pretty" is that with the output reindented. */
static int global_options(int *argc, char *argv[], JsonFormat *ret, bool *ret_no_pager) {
        bool options = true;
        int w = 1;

        *ret = JSON_FORMAT_OFF;
        *ret_no_pager = false;
        for (int i = 1; i < *argc; i++) {
                const char *v = options ? startswith(argv[i], "--json=") : NULL;

                if (streq(argv[i], "--"))
                        options = false;        /* what follows "--" stays as it is */
                if (options && streq(argv[i], "--no-pager")) {
                        *ret_no_pager = true;
                        continue;
                }
                if (v && json_format_parse(v, ret) < 0) {
                        log_error("--json= takes pretty, short or off, not '%s'.", v);
                        return -EUSAGE;
                }
                if (v && *ret == JSON_FORMAT_OFF)
                        continue;               /* dropped */
                argv[w++] = v ? (char *) "--json" : argv[i];
        }
        argv[w] = NULL;
        *argc = w;
        return 0;
}

static int run_verb(const Verb *verb, int argc, char *argv[], JsonFormat json, bool no_pager) {
        JsonCapture capture;
        int r = json_capture_begin(&capture, json);

        if (r < 0)
                return log_oom();
        if (verb->pager)
                pager_open(no_pager);
        r = verb->run(argc, argv, verb->data);
        (void) json_capture_end(&capture);
        pager_close();
        return r;
}

/* systemd's words for a verb nobody has, with the closest one when it is a typo away. */
static void unknown_verb(const char *name) {
        const char *names[ELEMENTSOF(verbs) + 1], *closest;

        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                names[i] = verbs[i].name;
        names[ELEMENTSOF(verbs)] = NULL;
        closest = string_closest(name, names);
        if (closest)
                log_error("Unknown command verb '%s', did you mean '%s'?", name, closest);
        else
                log_error("Unknown command verb '%s' (see --help).", name);
}

/* --dump-table: urlbootctl's own options, then each verb's. */
static bool dump_tables(int argc, char *argv[]) {
        const CommandTable *tables[ELEMENTSOF(verbs) + 1];
        size_t n = 0;

        tables[n++] = &urlbootctl_table;
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (verbs[i].table && verbs[i].table != tables[n - 1])
                        tables[n++] = verbs[i].table;
        return command_table_dump_requested(argc, argv, tables, n);
}

int main(int argc, char *argv[]) {
        static char *status_argv[] = { (char *) "status", NULL };
        JsonFormat json = JSON_FORMAT_OFF;
        bool no_pager = false;
        const Verb *verb;
        int r;

        log_set_program("urlbootctl");
        if (dump_tables(argc, argv))
                return EXIT_SUCCESS;
        /* as bootctl: no verb is "status" */
        if (argc < 2 || (argv[1][0] == '-' && !streq(argv[1], "-h") && !streq(argv[1], "--help") &&
                         !streq(argv[1], "--version"))) {
                if (argc < 2)
                        return verb_status(1, status_argv, NULL) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
                argv[0] = status_argv[0];
                r = global_options(&argc, argv, &json, &no_pager);
                if (r < 0)
                        return EXIT_USAGE;
                r = run_verb(verb_find("status"), argc, argv, json, no_pager);
                return r == -EUSAGE ? EXIT_USAGE : r != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
        }
        if (streq(argv[1], "-h") || streq(argv[1], "--help")) {
                help();
                return EXIT_SUCCESS;
        }
        if (streq(argv[1], "--version")) {
                puts("urlbootctl " URLBOOT_VERSION);
                return EXIT_SUCCESS;
        }
        verb = verb_find(argv[1]);
        if (!verb) {
                unknown_verb(argv[1]);
                return EXIT_USAGE;
        }
        r = global_options(&argc, argv, &json, &no_pager);
        if (r < 0)
                return EXIT_USAGE;
        r = run_verb(verb, argc - 1, argv + 1, json, no_pager);
        return r == -EUSAGE ? EXIT_USAGE : r != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
