/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl rollout: the versions a rollout offered this machine and what is known of each (the boot
 * manager's UrlbootRollout variable), the one running and why (UrlbootRolloutChoice), the entry list in use
 * and its age (UrlbootRolloutList), blessing the running version once the system reached
 * boot-complete.target - only when what runs is the UKI its entry pins (UrlbootImageSHA256) - and forgetting
 * a version's state, or the generation of the list taken last, by hand.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "efivars.h"
#include "json-writer.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "rollout-list-view.h"
#include "rollout.h"
#include "sha256.h"
#include "string-util.h"
#include "var-store.h"
#include "verb-rollout.h"

typedef struct RolloutArgs {
        const char *vars;
        bool json, quiet;
} RolloutArgs;

enum { ARG_VARS = 0x100, ARG_JSON, ARG_ALL };

static const OptionRow rollout_options[] = {
        OPTION_ROW_HELP,
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "show: JSON output", NULL },
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE",
          "show, reset, reset-generation: in an OVMF variable store (OVMF_VARS*.fd)", "file" },
        { "all", 0, ARG_ALL, OPTION_SWITCH, NULL, "reset: every version (instead of ID)", NULL },
        { "quiet", 'q', 'q', OPTION_SWITCH, NULL, "is-trial: print nothing, the exit status says it", NULL },
};

const CommandTable verb_rollout_table = {
        .name = "urlbootctl rollout",
        .arguments = "[show|bless|reset ID|reset-generation|is-trial]",
        .summary = "A rollout offers versions of an image as entries of a signed list (loader.conf: urlboot-entries).\n"
                   "The boot manager starts the newest one that is good or has tries left, counts every start of one\n"
                   "on trial, and refuses a list of a lower generation than the one it took last.\n"
                   "show             each version: good, on trial (tries left), bad (no tries left) or unreachable\n"
                   "                 (its UKI could not be fetched); which runs and why; the list's generation and age\n"
                   "bless            the running version reached boot-complete.target: it is good, if the UKI that\n"
                   "                 runs is the one its entry pins (urlboot-rollout-bless.service)\n"
                   "reset            forget what is known of a version (it is new again, with all its tries), or of all\n"
                   "reset-generation let the boot manager take an entry list of any generation at the next boot\n"
                   "is-trial         exit status 0 when the running version is on trial and not blessed yet, else 1",
        .options = rollout_options,
        .n_options = ELEMENTSOF(rollout_options),
        .max_arguments = 2,     /* reset ID */
        .complete_arguments = "words:show bless reset reset-generation is-trial",
};

/* 0: run; 1: help printed; -EUSAGE: usage error (logged). The action and its argument in *ret_argc, *ret_argv. */
static int parse_args(int argc, char *argv[], RolloutArgs *a, bool *all, int *ret_argc, char ***ret_argv) {
        OptionParser p;
        int c, r;

        if (option_parser_init(&p, &verb_rollout_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        option_parser_done(&p);
                        (void) command_table_help(&verb_rollout_table, stdout);
                        return 1;
                case 'q': a->quiet = true; break;
                case ARG_VARS: a->vars = p.argument; break;
                case ARG_JSON: a->json = true; break;
                case ARG_ALL: *all = true; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, ret_argc, ret_argv);
        option_parser_done(&p);
        return r < 0 ? r : 0;
}

static int store_load(Target *t, RolloutStore *s) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        int r;

        r = target_get(t, URLBOOT_VAR_ROLLOUT, (void **) &text, &size);
        if (r == -ENOENT) {
                s->n = 0;
                return 0;
        }
        if (r < 0)
                return log_error_errno(r, "Failed to read the rollout's state (%s): %m", URLBOOT_VAR_ROLLOUT);
        rollout_store_parse(text, size, s);
        return 0;
}

static int store_save(Target *t, const RolloutStore *s) {
        static char text[ROLLOUT_TEXT_MAX + 1];
        size_t n = rollout_store_format(s, text, sizeof text);
        int r = target_set(t, URLBOOT_VAR_ROLLOUT, text, n);

        if (r < 0 && !(r == -ENOENT && n == 0))
                return log_error_errno(r, "Failed to write the rollout's state (%s): %m", URLBOOT_VAR_ROLLOUT);
        return 0;
}

/* The running version, from efivarfs (a VARS file has no volatile variables). @ret 0, -ENOENT, <0 */
static int running_load(const RolloutArgs *a, RolloutRunning *ret) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        int r;

        if (a->vars)
                return -ENOENT;
        r = efi_get_variable(URLBOOT_VAR_ROLLOUT_CHOICE, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &text, &size);
        if (r < 0)
                return r;
        if (rollout_running_parse(text, size, ret) < 0)
                return log_warning_errno(EBADMSG, "%s is not what the boot manager writes; ignored.",
                                         URLBOOT_VAR_ROLLOUT_CHOICE);
        return 0;
}

/* good, trial, bad (on trial with no try left) or unreachable (its UKI could not be fetched often enough):
 * the last two are skipped by the boot manager. */
static const char *record_word(const RolloutRecord *r) {
        return r->state == ROLLOUT_GOOD                           ? "good"
               : r->tries_left == 0                               ? "bad"
               : r->fetch_failures >= ROLLOUT_FETCH_FAILURES_MAX ? "unreachable"
                                                                  : "trial";
}

static void show_text(const RolloutStore *s, const RolloutRunning *run, const RolloutListInfo *list) {
        char text[512];

        if (run)
                printf("Running: %s (%s)\n", run->id, run->why);
        else
                printf("Running: not a version of a rollout\n");
        if (list) {
                const char *warning = rollout_list_view_warning(
                        rollout_list_view_describe(list, (uint64_t) time(NULL), text, sizeof text));

                printf("List: %s\n", text);
                if (warning)
                        log_warning("Warning: %s.", warning);
        }
        if (s->n == 0) {
                printf("No version is known yet.\n");
                return;
        }
        printf("%-40s %-11s %10s %10s %14s\n", "VERSION", "STATE", "TRIES-LEFT", "TRIES-DONE", "FETCH-FAILURES");
        for (size_t i = 0; i < s->n; i++)
                printf("%-40s %-11s %10u %10u %14u\n", s->records[i].id, record_word(&s->records[i]),
                       s->records[i].tries_left, s->records[i].tries_done, s->records[i].fetch_failures);
}

static void show_json_list(const RolloutListInfo *list) {
        char text[512];
        RolloutListAge age;

        if (!list) {
                fputs("null", stdout);
                return;
        }
        age = rollout_list_view_describe(list, (uint64_t) time(NULL), text, sizeof text);
        printf("{\"generation\":%llu,\"made\":%llu,\"maxAge\":%llu,\"refusedGeneration\":%llu",
               (unsigned long long) list->meta.generation, (unsigned long long) list->meta.made,
               (unsigned long long) list->meta.max_age, (unsigned long long) list->refused);
        json_write_key(stdout, "source", false);
        json_write_string(stdout, rollout_list_source_to_string(list->source));
        json_write_key(stdout, "expired", false);
        fputs(age == ROLLOUT_LIST_FRESH ? "false}" : "true}", stdout);
}

static void show_json(const RolloutStore *s, const RolloutRunning *run, const RolloutListInfo *list) {
        fputc('{', stdout);
        json_write_key(stdout, "running", true);
        if (run) {
                fputc('{', stdout);
                json_write_key(stdout, "id", true);
                json_write_string(stdout, run->id);
                json_write_key(stdout, "why", false);
                json_write_string(stdout, run->why);
                json_write_key(stdout, "sha256", false);
                json_write_string(stdout, run->pin[0] ? run->pin : NULL);
                fputc('}', stdout);
        } else
                fputs("null", stdout);
        json_write_key(stdout, "list", false);
        show_json_list(list);
        json_write_key(stdout, "versions", false);
        fputc('[', stdout);
        for (size_t i = 0; i < s->n; i++) {
                fputs(i ? ",{" : "{", stdout);
                json_write_key(stdout, "id", true);
                json_write_string(stdout, s->records[i].id);
                json_write_key(stdout, "state", false);
                json_write_string(stdout, record_word(&s->records[i]));
                printf(",\"triesLeft\":%u,\"triesDone\":%u,\"fetchFailures\":%u}", s->records[i].tries_left,
                       s->records[i].tries_done, s->records[i].fetch_failures);
        }
        puts("]}");
}

static int do_show(Target *t, const RolloutArgs *a) {
        _cleanup_free_ RolloutStore *s = calloc(1, sizeof(RolloutStore));
        RolloutRunning run;
        RolloutListInfo list;
        bool have_run, have_list;
        int r;

        if (!s)
                return log_oom();

        r = store_load(t, s);
        if (r < 0)
                return r;
        have_run = running_load(a, &run) >= 0;
        have_list = !a->vars && rollout_list_view_load(&list) >= 0;
        if (a->json)
                show_json(s, have_run ? &run : NULL, have_list ? &list : NULL);
        else
                show_text(s, have_run ? &run : NULL, have_list ? &list : NULL);
        return 0;
}

/* What the boot manager verified and started is what the running version's entry pins. @ret 0, <0 (logged) */
static int check_what_ran(const RolloutRunning *run) {
        _cleanup_free_ char *hex = NULL;
        size_t n = 0;
        int r;

        if (!run->pin[0])
                return log_error_errno(EPERM, "%s runs, but its entry pins no UKI (urlboot-sha256): not blessed, since "
                                       "what ran cannot be told from what the entry names.", run->id);
        r = efi_get_variable(URLBOOT_VAR_IMAGE_SHA256, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &hex, &n);
        if (r < 0 || !sha256_hex_valid(hex, n))
                return log_error_errno(EPERM, "%s runs, but the boot manager recorded no SHA-256 of what it started "
                                       "(%s): not blessed.", run->id, URLBOOT_VAR_IMAGE_SHA256);
        if (memcmp(hex, run->pin, n) != 0)
                return log_error_errno(EPERM, "The UKI that runs has SHA-256 %.64s, but %s pins %s: not blessed (the "
                                       "version that ran is not the one its entry names).", hex, run->id, run->pin);
        return 0;
}

static int do_bless(Target *t, const RolloutArgs *a) {
        _cleanup_free_ RolloutStore *s = calloc(1, sizeof(RolloutStore));
        RolloutRunning run;
        RolloutRecord *rec;
        int r;

        if (!s)
                return log_oom();

        r = running_load(a, &run);
        if (r == -ENOENT) {
                log_info("This boot is not a version of a rollout: nothing to bless.");
                return 0;
        }
        if (r < 0)
                return log_error_errno(r, "Failed to read which version runs (%s): %m", URLBOOT_VAR_ROLLOUT_CHOICE);
        r = store_load(t, s);
        if (r < 0)
                return r;
        rec = rollout_store_find(s, run.id);
        if (rec && rec->state == ROLLOUT_GOOD)
                return 0;
        if (!rec)
                return log_error_errno(ENOENT, "%s runs, but the rollout's state does not know it (reset by hand?); "
                                       "not blessed.", run.id);
        r = check_what_ran(&run);
        if (r < 0)
                return r;
        (void) rollout_bless(s, run.id);
        r = store_save(t, s);
        if (r < 0)
                return r;
        log_info("%s reached boot-complete.target: marked good after %u start%s.", run.id, rec->tries_done,
                 rec->tries_done == 1 ? "" : "s");
        return 0;
}

static int do_reset(Target *t, const char *id, bool all) {
        _cleanup_free_ RolloutStore *s = calloc(1, sizeof(RolloutStore));
        int r;

        if (!s)
                return log_oom();

        r = store_load(t, s);
        if (r < 0)
                return r;
        if (all)
                s->n = 0;
        else if (rollout_reset(s, id) < 0)
                return log_error_errno(ENOENT, "The rollout's state does not know %s (see 'urlbootctl rollout').", id);
        return store_save(t, s);
}

/* The boot manager keeps the list it took last where only code before the OS can write it; root asks it to
 * forget that list at the next boot (or, in a VARS file, the list goes at once). */
static int do_reset_generation(Target *t, const RolloutArgs *a) {
        RolloutListInfo list;
        int r;

        if (a->vars) {
                r = target_set(t, URLBOOT_VAR_ROLLOUT_KEPT, NULL, 0);
                if (r < 0 && r != -ENOENT)
                        return log_error_errno(r, "Failed to remove %s from %s: %m", URLBOOT_VAR_ROLLOUT_KEPT, a->vars);
                log_info("The entry list kept in %s is forgotten: the next boot takes any generation.", a->vars);
                return 0;
        }
        r = target_set(t, URLBOOT_VAR_ROLLOUT_RESET, "1", 1);
        if (r < 0)
                return log_error_errno(r, "Failed to ask the boot manager to forget its entry list (%s): %m",
                                       URLBOOT_VAR_ROLLOUT_RESET);
        if (rollout_list_view_load(&list) >= 0)
                log_info("At the next boot the boot manager forgets entry list generation %llu and takes any generation.",
                         (unsigned long long) list.meta.generation);
        else
                log_info("At the next boot the boot manager forgets the entry list it kept and takes any generation.");
        return 0;
}

/* 0 when the running version is on trial and not blessed, 1 when not, <0 on errors. */
static int do_is_trial(Target *t, const RolloutArgs *a) {
        _cleanup_free_ RolloutStore *s = calloc(1, sizeof(RolloutStore));
        RolloutRunning run;
        RolloutRecord *rec;
        int r;

        if (!s)
                return log_oom();
        if (running_load(a, &run) < 0)
                return 1;
        r = store_load(t, s);
        if (r < 0)
                return r;
        rec = rollout_store_find(s, run.id);
        r = rec && rec->state == ROLLOUT_TRIAL ? 0 : 1;
        if (!a->quiet)
                puts(r == 0 ? "trial" : "no");
        return r;
}

int verb_rollout(int argc, char *argv[], const void *data) {
        RolloutArgs a = {};
        const char *action;
        bool all = false;
        char **args;
        int nargs = 0;
        Target t;
        int r, q;

        assert(argv);

        r = parse_args(argc, argv, &a, &all, &nargs, &args);
        if (r != 0)
                return r < 0 ? r : 0;
        action = nargs > 0 ? args[0] : "show";
        if (!streq(action, "show") && !streq(action, "bless") && !streq(action, "reset") &&
            !streq(action, "reset-generation") && !streq(action, "is-trial"))
                return log_usage_error("Unknown rollout action '%s' (see 'urlbootctl rollout --help').", action);
        if (streq(action, "reset") ? 1 + !all != nargs : nargs > 1)
                return log_usage_error("rollout %s: %s.", action,
                                       streq(action, "reset") ? "name one version, or --all" : "too many arguments");
        if (a.vars && (streq(action, "bless") || streq(action, "is-trial")))
                return log_usage_error("rollout %s is about this boot: it takes no --vars-file=.", action);

        r = target_open(&t, a.vars, EFI_VENDOR_URLBOOT_STR);
        if (r < 0)
                return r;
        if (streq(action, "show"))
                r = do_show(&t, &a);
        else if (streq(action, "bless"))
                r = do_bless(&t, &a);
        else if (streq(action, "reset"))
                r = do_reset(&t, all ? NULL : args[1], all);
        else if (streq(action, "reset-generation"))
                r = do_reset_generation(&t, &a);
        else
                r = do_is_trial(&t, &a);
        q = target_close(&t);
        if (r >= 0 && q < 0)
                r = -EIO;
        return r;       /* is-trial's "no" is 1: exit status 1 without an error message */
}
