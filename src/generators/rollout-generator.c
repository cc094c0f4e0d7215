/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-rollout-generator: a version of a rollout on trial must earn its blessing or reboot.
 *
 * The boot manager counted this start before it ran (UrlbootRollout) and said which version runs
 * (UrlbootRolloutChoice). When that version is still on trial, this boot may not end in a shell waiting
 * for someone: emergency and rescue mode reboot (the next start counts against the version, and once
 * its tries are gone the boot manager falls back), and so does a deadline (urlboot.rollout_timeout=
 * seconds) in the initrd and the system alike. The initrd's deadline runs from the moment the image is in
 * place (after urlboot-imports.target): the download has its own bounds (retries, --min-rate=), and time on
 * the network is not the version's. The system's runs from its start. In the system,
 * urlboot-rollout-bless.service marks the version good once boot-complete.target is reached (and what ran is
 * what its entry pins), as systemd-bless-boot does for entries on an ESP; the deadline then finds it good
 * and does nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "efivars.h"
#include "generator.h"
#include "initrd.h"
#include "log.h"
#include "proc-cmdline.h"
#include "rollout.h"
#include "string-fundamental.h"
#include "macro.h"
#include "string-util.h"

#define GENERATOR_NAME "urlboot-rollout-generator"
#define DEADLINE_DEFAULT_SEC 900U
#define DEADLINE_MAX_SEC (7U * 24U * 3600U)

typedef struct Trial {
        RolloutRunning running;
        unsigned tries_left;
        unsigned deadline_sec;  /* 0: none */
        bool initrd;
} Trial;

/* The running version, when it is on trial. @ret 1 on trial, 0 not, <0 error */
static int trial_load(Trial *t) {
        _cleanup_free_ char *choice = NULL, *store_text = NULL;
        static RolloutStore store;
        RolloutRecord *r;
        size_t n = 0, m = 0;
        int k;

        k = efi_get_variable(URLBOOT_VAR_ROLLOUT_CHOICE, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &choice, &n);
        if (k == -ENOENT)
                return 0;
        if (k < 0)
                return log_warning_errno(k, "Cannot read %s: %m", URLBOOT_VAR_ROLLOUT_CHOICE);
        if (rollout_running_parse(choice, n, &t->running) < 0)
                return log_warning_errno(EBADMSG, "%s is not what the boot manager writes; ignored.",
                                         URLBOOT_VAR_ROLLOUT_CHOICE);
        k = efi_get_variable(URLBOOT_VAR_ROLLOUT, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &store_text, &m);
        if (k < 0 && k != -ENOENT)
                return log_warning_errno(k, "Cannot read %s: %m", URLBOOT_VAR_ROLLOUT);
        rollout_store_parse(store_text, k < 0 ? 0 : m, &store);
        r = rollout_store_find(&store, t->running.id);
        if (!r || r->state != ROLLOUT_TRIAL)
                return 0;
        t->tries_left = r->tries_left;
        return 1;
}

static int parse_key(const char *key, const char *value, void *userdata) {
        Trial *t = userdata;
        uint64_t v;

        if (!proc_cmdline_key_streq(key, "urlboot.rollout_timeout"))
                return 0;
        if (!value || fparse_uint64(value, strlen(value), DEADLINE_MAX_SEC, &v) < 0) {
                log_warning("urlboot.rollout_timeout=%s: not a number of seconds up to %u; the default (%u s) applies.",
                            value ?: "", DEADLINE_MAX_SEC, DEADLINE_DEFAULT_SEC);
                return 0;
        }
        t->deadline_sec = (unsigned) v;
        return 0;
}

static int write_reboot_service(const GeneratorDirs *d, const char *unit, const char *why, bool condition) {
        _cleanup_free_ char *text = unit_text_escape(why);
        FILE *f;
        int r;

        if (!text)
                return log_oom();
        r = generator_open_unit_file(d->normal, unit, GENERATOR_NAME, &f);
        if (r < 0)
                return log_error_errno(r, "Failed to create %s: %m", unit);
        fprintf(f, "[Unit]\n"
                   "Description=%s\n"
                   "DefaultDependencies=no\n"
                   "\n"
                   "[Service]\n"
                   "Type=oneshot\n", text);
        /* in the system, the version may have been blessed since this was generated */
        if (condition)
                fputs("ExecCondition=" URLBOOTCTL_PATH " rollout is-trial --quiet\n", f);
        fputs("ExecStart=systemctl --no-block reboot\n", f);
        return generator_close_unit_file(f, unit);
}

/* Emergency and rescue mode reboot: nobody waits at a diskless machine's console. */
static const char *const failure_targets[] = { "emergency.target", "rescue.target" };

static int add_failure_reboot(const GeneratorDirs *d, const Trial *t) {
        _cleanup_free_ char *why = NULL;
        int r;

        if (asprintf(&why, "urlboot: %s is on trial and failed; rebooting to count the try (%u left)", t->running.id,
                     t->tries_left) < 0)
                return log_oom();
        r = write_reboot_service(d, "urlboot-rollout-failed.service", why, false);
        if (r < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(failure_targets); i++) {
                r = generator_write_dropin(d->normal, failure_targets[i], "50-urlboot-rollout",
                                           "[Unit]\nWants=urlboot-rollout-failed.service\n");
                if (r < 0)
                        return log_error_errno(r, "Failed to write a drop-in for %s: %m", failure_targets[i]);
        }
        return 0;
}

static int add_deadline(const GeneratorDirs *d, const Trial *t) {
        _cleanup_free_ char *why = NULL;
        FILE *f;
        int r;

        if (t->deadline_sec == 0)
                return 0;
        if (asprintf(&why, "urlboot: %s did not reach boot-complete.target within %u s%s; rebooting to count the try",
                     t->running.id, t->deadline_sec, t->initrd ? " of its image in place" : "") < 0)
                return log_oom();
        r = write_reboot_service(d, "urlboot-rollout-deadline.service", why, !t->initrd);
        if (r < 0)
                return r;
        r = generator_open_unit_file(d->normal, "urlboot-rollout-deadline.timer", GENERATOR_NAME, &f);
        if (r < 0)
                return log_error_errno(r, "Failed to create urlboot-rollout-deadline.timer: %m");
        /* since the timer started: in the initrd once the image is in place (a download's time is not the
         * version's: it has bounds of its own), in the system at its start; a reload does not restart it */
        fprintf(f, "[Unit]\n"
                   "Description=urlboot: deadline for the trial of a rollout's version\n"
                   "DefaultDependencies=no\n"
                   "%s"
                   "\n"
                   "[Timer]\n"
                   "OnActiveSec=%u\n"
                   "AccuracySec=1s\n", t->initrd ? "After=urlboot-imports.target\n" : "", t->deadline_sec);
        r = generator_close_unit_file(f, "urlboot-rollout-deadline.timer");
        if (r < 0)
                return r;
        return generator_add_symlink(d->normal, "sysinit.target", "wants", "urlboot-rollout-deadline.timer");
}

int main(int argc, char *argv[]) {
        Trial t = { .deadline_sec = DEADLINE_DEFAULT_SEC };
        GeneratorDirs dirs;
        int r;

        log_set_program(GENERATOR_NAME);
        r = generator_parse_args(argc, argv, &dirs);
        if (r < 0)
                return EXIT_FAILURE;
        r = trial_load(&t);
        if (r <= 0)
                return EXIT_SUCCESS;    /* not a trial: nothing to watch (a broken variable was logged) */
        t.initrd = in_initrd();
        (void) proc_cmdline_parse(parse_key, &t, 0);

        r = add_failure_reboot(&dirs, &t);
        if (r >= 0)
                r = add_deadline(&dirs, &t);
        if (r >= 0 && !t.initrd)
                r = generator_add_symlink(dirs.normal, "basic.target", "wants", "urlboot-rollout-bless.service");
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
