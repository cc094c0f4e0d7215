/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-sysext-measure: before systemd-sysext merges, measure each extension it will merge into
 * PCR 13, with a record in /run/log/urlboot/tpm2-measure.log; an extension already measured with the
 * same digest in this boot is not measured again.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command-table.h"
#include "exit-status.h"
#include "json-format.h"
#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "measure-log.h"
#include "path-util.h"
#include "string-util.h"
#include "sysext-digest.h"
#include "sysext-images.h"
#include "tpm-pcr-event.h"

/* systemd's registry: PCR 13 holds system extensions (systemd-stub measures the ones it passes on) */
#define SYSEXT_PCR 13

typedef struct Args {
        const char *log;
        const char *tpm2_device;        /* a device path, or a TCTI "driver:configuration" */
        const char *root;               /* --root=: an OS tree instead of the running system */
        char **images;                  /* --image=: these, not what systemd-sysext lists */
        const char *sysext, *dissect;   /* the programs asked */
        bool dry_run;
        JsonFormat json;
} Args;

typedef enum Outcome { MEASURED, ALREADY, NOT_MERGED, WOULD_MEASURE } Outcome;

typedef struct Planned {
        char *name, *path, *text;
        const char *reason;             /* why it is not merged */
        Outcome outcome;
} Planned;

typedef struct Plan {
        Planned *items;
        size_t n;
} Plan;

enum { ARG_VERSION = 0x100, ARG_IMAGE, ARG_ROOT, ARG_LOG, ARG_TPM2_DEVICE, ARG_DRY_RUN, ARG_JSON };

static const OptionRow options[] = {
        OPTION_ROW_HELP,
        OPTION_ROW_VERSION(ARG_VERSION),
        { "image", 0, ARG_IMAGE, OPTION_REQUIRED, "PATH",
          "measure this image (repeatable) instead of those systemd-sysext\n"
          "lists; no extension-release check", "file" },
        { "root", 0, ARG_ROOT, OPTION_REQUIRED, "DIR",
          "the extensions and os-release of the OS tree in DIR (as\nsystemd-sysext --root=)", "dir" },
        { "log", 0, ARG_LOG, OPTION_REQUIRED, "FILE", "the event log (default " MEASURE_LOG_DEFAULT ")", "file" },
        { "tpm2-device", 0, ARG_TPM2_DEVICE, OPTION_REQUIRED, "PATH",
          "the TPM's device (default /dev/tpmrm0, else /dev/tpm0), or a\n"
          "TCTI as DRIVER:CONF (swtpm:host=127.0.0.1,port=2321)", "file" },
        { "dry-run", 0, ARG_DRY_RUN, OPTION_SWITCH, NULL, "print what would be measured; no TPM, no log", NULL },
        { "json", 0, ARG_JSON, OPTION_OPTIONAL, "pretty|short|off",
          "one object per extension: name, path, event, outcome", NULL },
};

static const CommandTable table = {
        .name = "urlboot-sysext-measure",
        .summary = "Measures every system extension image systemd-sysext will merge into TPM PCR 13, one\n"
                   "event each (\"sysext:NAME:KIND:DIGEST\", KIND verity, sha256 or tree) in the order of\n"
                   "the merge, and logs them in " MEASURE_LOG_DEFAULT ". Run by systemd-sysext.service\n"
                   "before it merges; an extension measured with the same digest earlier in this boot is not\n"
                   "measured again. Without a TPM it measures nothing and says so.",
        .options = options,
        .n_options = ELEMENTSOF(options),
};

/* Returns 1 to go on, 0 after --help or --version, -EUSAGE (logged) or -ENOMEM. */
static int parse_args(int argc, char *argv[], Args *a) {
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 1;

        if (option_parser_init(&p, &table, argc, argv) < 0)
                return log_oom();
        while (r > 0 && (c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        r = command_table_help(&table, stdout);
                        break;
                case ARG_VERSION:
                        puts("urlboot-sysext-measure " URLBOOT_VERSION);
                        r = 0;
                        break;
                case ARG_IMAGE:
                        if (strv_extend(&a->images, p.argument) < 0)
                                r = log_oom();
                        break;
                case ARG_ROOT:
                        if (!path_is_absolute(p.argument))
                                r = log_usage_error("--root= takes an absolute path, not '%s'.", p.argument);
                        else
                                a->root = p.argument;
                        break;
                case ARG_LOG:
                        a->log = p.argument;
                        break;
                case ARG_TPM2_DEVICE:
                        if (isempty(p.argument))
                                r = log_usage_error("--tpm2-device= takes a device path or a TCTI (try --help).");
                        else
                                a->tpm2_device = p.argument;
                        break;
                case ARG_DRY_RUN:
                        a->dry_run = true;
                        break;
                case ARG_JSON:
                        if (json_format_option(p.argument, &a->json) < 0)
                                r = -EUSAGE;
                        break;
                }
        if (r > 0 && c < 0)
                r = c;
        if (r > 0)
                r = option_parser_arguments(&p, &nargs, &args) < 0 ? -EUSAGE : 1;
        option_parser_done(&p);
        return r;
}

static int plan_add(Plan *p, const char *name, const char *path, const char *reason) {
        Planned *items = realloc(p->items, (p->n + 1) * sizeof *items);
        Planned *i;

        if (!items)
                return log_oom();
        p->items = items;
        i = &items[p->n++];
        *i = (Planned) { .name = strdup(name), .path = strdup(path), .reason = reason,
                         .outcome = reason ? NOT_MERGED : WOULD_MEASURE };
        if (!i->name || !i->path)
                return log_oom();
        if (reason)
                return 0;
        int r = sysext_event_text_of_image(path, &i->text);
        if (r == -EBADMSG)
                return log_error_errno(r, "The verity root hash of %s is not hex; fix its .roothash or "
                                       "user.verity.roothash.", path);
        if (r < 0)
                return log_error_errno(r, "Failed to read the extension %s: %m", path);
        return 0;
}

static int host_identity(const char *root, HostRelease *host, char ***fields) {
        int r = host_release_read(root, fields);

        if (r < 0)
                return log_error_errno(r, "Failed to read the host's os-release: %m");
        *host = (HostRelease) {
                .id = release_field(*fields, "ID"), .version_id = release_field(*fields, "VERSION_ID"),
                .sysext_level = release_field(*fields, "SYSEXT_LEVEL"),
                .scope = access("/etc/initrd-release", F_OK) >= 0 ? "initrd" : "system",
                .architecture = host_architecture(),
        };
        if (isempty(host->id))
                return log_error_errno(EINVAL, "The host's os-release has no ID=; systemd-sysext merges nothing.");
        return 0;
}

/* What systemd-sysext lists, each merged or not by its extension-release. */
static int plan_from_sysext(const Args *a, Plan *p) {
        _cleanup_(sysext_images_done) SysextImages images = {};
        _cleanup_strv_free_ char **host_fields = NULL;
        HostRelease host;
        int r;

        r = host_identity(a->root, &host, &host_fields);
        if (r < 0)
                return r;
        r = sysext_images_list(a->sysext, a->root, &images);
        if (r == -ENOENT)
                return log_error_errno(r, "%s not found; it is systemd's (package systemd).", a->sysext);
        if (r < 0)
                return log_error_errno(r, "Failed to ask '%s list --json=short' for the extensions: %m", a->sysext);
        for (size_t i = 0; i < images.n; i++) {
                SysextImage *img = &images.items[i];
                const char *reason = NULL;
                r = sysext_image_read_release(img, a->dissect);
                if (r == -ENOENT) {
                        /* measuring one too many keeps sealed secrets sealed; one too few would not */
                        log_warning("%s not found (Debian: systemd-container): measuring %s without knowing "
                                    "whether systemd-sysext merges it.", a->dissect, img->name);
                        r = 0;
                } else if (r < 0)
                        return log_error_errno(r, "Failed to read the extension-release of %s: %m", img->path);
                else if (extension_release_matches(img->release, &host, &reason) == 0)
                        log_info("Not measuring %s: systemd-sysext will not merge it, %s.", img->name, reason);
                r = plan_add(p, img->name, img->path, reason);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int plan_from_images(const Args *a, Plan *p) {
        _cleanup_free_ SysextImage *items = calloc(strv_length(a->images) + 1, sizeof *items);
        size_t n = 0;
        int r;

        if (!items)
                return log_oom();
        STRV_FOREACH(i, a->images)
                items[n++].path = *i;
        sysext_images_sort_paths(items, n);
        for (size_t i = 0; i < n; i++) {
                _cleanup_free_ char *name = NULL;
                r = sysext_name_from_path(items[i].path, &name);
                if (r < 0)
                        return log_error_errno(r, "--image=%s: no file name in it.", items[i].path);
                r = plan_add(p, name, items[i].path, NULL);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int measure_one(int log_fd, const char *device, Planned *i) {
        TpmEventResult digests;
        const char *error = NULL;
        int r;

        r = tpm_pcr_event(device, SYSEXT_PCR, i->text, strlen(i->text), &digests, &error);
        if (r == -EOPNOTSUPP)
                return log_error_errno(r, "Cannot measure %s: %s (Debian: libtss2-esys-3.0.2-0, "
                                       "libtss2-tctildr0).", i->name, error);
        if (r == -E2BIG)
                return log_error_errno(r, "Cannot measure %s: its name is too long for one TPM event.", i->name);
        if (r < 0)
                return log_error_errno(r, "The TPM (%s) refused to measure %s: %s.", device, i->name, error);
        r = measure_log_append(log_fd, SYSEXT_PCR, i->text, &digests);
        if (r < 0)
                return log_error_errno(r, "Measured %s, but failed to log it: %m", i->name);
        i->outcome = MEASURED;
        log_info("Measured extension %s into PCR %d: %s", i->name, SYSEXT_PCR, i->text);
        return 0;
}

static int measure_plan(const Args *a, const char *device, Plan *p) {
        _cleanup_(measure_log_done) MeasureLog log = {};
        size_t bad = 0;
        int fd, r;

        fd = measure_log_open_locked(a->log);
        if (fd < 0)
                return log_error_errno(fd, "Failed to open the event log %s: %m", a->log);
        /* a log that cannot be read only costs the check for what was measured already */
        r = measure_log_read(a->log, &log, &bad);
        if (r == -EBADMSG)
                log_warning("The event log %s does not parse (record %zu); measuring anyway.", a->log, bad + 1);
        else if (r < 0)
                log_warning_errno(r, "Cannot read the event log %s (%m); measuring anyway.", a->log);
        r = 0;
        for (size_t i = 0; r >= 0 && i < p->n; i++) {
                if (p->items[i].outcome == NOT_MERGED)
                        continue;
                if (measure_log_has(&log, SYSEXT_PCR, p->items[i].text)) {
                        p->items[i].outcome = ALREADY;
                        continue;
                }
                r = measure_one(fd, device, &p->items[i]);
                if (r < 0)
                        break;
        }
        close(fd);
        return r;
}

static const char *outcome_name(Outcome o) {
        return o == MEASURED ? "measured" : o == ALREADY ? "already-measured" : o == NOT_MERGED ? "not-merged" :
               "would-measure";
}

static void print_plan(const Args *a, const Plan *p) {
        if (a->json == JSON_FORMAT_OFF) {
                for (size_t i = 0; a->dry_run && i < p->n; i++)
                        printf("%s\t%s\n", p->items[i].name,
                               p->items[i].text ?: p->items[i].reason ?: "");
                return;
        }
        putchar('[');
        for (size_t i = 0; i < p->n; i++) {
                const Planned *e = &p->items[i];
                putchar(i ? ',' : '{');
                if (i)
                        putchar('{');
                json_write_key(stdout, "name", true);
                json_write_string(stdout, e->name);
                json_write_key(stdout, "path", false);
                json_write_string(stdout, e->path);
                json_write_key(stdout, "pcr", false);
                printf("%d", SYSEXT_PCR);
                json_write_key(stdout, "event", false);
                if (e->text)
                        json_write_string(stdout, e->text);
                else
                        fputs("null", stdout);
                json_write_key(stdout, "outcome", false);
                json_write_string(stdout, outcome_name(e->outcome));
                if (e->reason) {
                        json_write_key(stdout, "reason", false);
                        json_write_string(stdout, e->reason);
                }
                putchar('}');
        }
        puts("]");
}

static void plan_done(Plan *p) {
        for (size_t i = 0; i < p->n; i++) {
                free(p->items[i].name);
                free(p->items[i].path);
                free(p->items[i].text);
        }
        free(p->items);
}

static int run(Args *a) {
        _cleanup_(plan_done) Plan p = {};
        JsonCapture capture;
        const char *device = NULL;
        int r;

        r = a->images ? plan_from_images(a, &p) : plan_from_sysext(a, &p);
        if (r < 0)
                return r;
        if (!a->dry_run) {
                device = a->tpm2_device ?: tpm_device();
                if (!device)
                        log_info("No TPM2 device: the extensions are not measured.");
                else
                        r = measure_plan(a, device, &p);
        }
        if (json_capture_begin(&capture, a->json) < 0)
                return log_oom();
        print_plan(a, &p);
        (void) json_capture_end(&capture);
        return r;
}

int main(int argc, char *argv[]) {
        Args a = { .log = MEASURE_LOG_DEFAULT, .sysext = "systemd-sysext", .dissect = "systemd-dissect" };
        int r;

        log_set_program("urlboot-sysext-measure");
        r = parse_args(argc, argv, &a);
        if (r > 0)
                r = run(&a);
        strv_free(a.images);
        return r == -EUSAGE ? EXIT_USAGE : r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
