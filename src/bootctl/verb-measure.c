/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl measure: predicts PCR 11 (the UKI's sections, per profile), PCR 12 (command lines
 * from the boot manager, the load options and SMBIOS, the profile, credentials, configuration
 * extensions) and PCR 13 (system extension images) for a boot of a UKI, from the same event lists
 * the stub measures (src/fundamental: uki-measure.h, stub-measure.h, stub-sidecar.h), hashed here
 * with OpenSSL. systemd-measure predicts PCR 11 only.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fileio.h"
#include "json-writer.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "path-util.h"
#include "pcr-predict.h"
#include "string-util.h"
#include "stub-sidecar.h"
#include "sysext-digest.h"
#include "sysext-images.h"
#include "verb-measure.h"

#define UKI_SIZE_MAX (2UL * 1024 * 1024 * 1024)
#define SIDECAR_SIZE_MAX (1UL * 1024 * 1024 * 1024)
#define FILES_MAX 256
#define GLOBAL_CREDENTIALS "\\loader\\credentials"
#define GLOBAL_EXTENSIONS "\\loader\\extensions"

typedef struct Args {
        const char *uki;
        const char *options;            /* load options, possibly "@N ..." */
        int64_t profile;                /* --profile=, -1 when not given */
        const char *smbios_extra;
        const char *esp;                /* an ESP tree to pick credentials and extensions up from */
        const char *uki_path;           /* the UKI's path in it */
        char **beside;                  /* --credential= and --extension= files (the UKI's .extra.d) */
        char **global_credentials;      /* --global-credential= */
        char **global_extensions;       /* --global-extension= */
        const char *phases;             /* colon-separated words systemd-pcrphase measures into PCR 11 */
        char **sysexts;                 /* --sysext=: images urlboot-sysext-measure measures after boot */
        bool boot_manager;
        bool secure_boot;
        bool confidential_vm;
        bool json;
        bool events;
        unsigned banks;                 /* 1 << PcrBank */
        bool devicetree;                /* --devicetree-compatible= given */
        const char *devicetree_compatible;
        Chid chids[CHID_TYPES];         /* --chid=TYPE:UUID */
        bool have_chids;
} Args;

typedef struct Files {
        PredictFile *files;
        size_t n;
} Files;

static void files_done(Files *f) {
        for (size_t i = 0; i < f->n; i++) {
                free((char *) f->files[i].name);
                free((void *) f->files[i].data);
        }
        free(f->files);
}

/* Reads a file the stub would pick up from dir (NULL: beside the UKI); refuses one it would not. */
static int add_file(Files *f, const char *dir, const char *path) {
        const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        PredictFile *grown;
        char *data, *copy;
        size_t size;
        int r;

        if (!pcr_predict_file_wanted(dir, name))
                return log_usage_error("The stub does not pick up '%s' from %s: credentials end in .cred, "
                                       "extension images in .raw (ASCII names, not starting with a dot).",
                                       name, dir ?: "beside the UKI");
        if (f->n >= FILES_MAX)
                return log_error_errno(E2BIG, "At most %d credentials and extension images.", FILES_MAX);
        /* The ESP is FAT: names that differ only in case are one file there, which the stub sees once. */
        for (size_t i = 0; i < f->n; i++)
                if (f->files[i].dir == dir && strcasecmp(f->files[i].name, name) == 0)
                        return log_error_errno(EEXIST, "'%s' and '%s' %s are one file on the ESP (FAT ignores case): "
                                               "keep one of them.", f->files[i].name, name,
                                               dir ? dir : "beside the UKI");
        r = read_full_file(path, SIDECAR_SIZE_MAX, &data, &size);
        if (r < 0)
                return log_error_errno(r, "Failed to read %s: %m", path);
        grown = realloc(f->files, (f->n + 1) * sizeof *f->files);
        copy = strdup(name);
        if (!grown || !copy) {
                free(data);
                free(copy);
                if (grown)
                        f->files = grown;
                return log_oom();
        }
        f->files = grown;
        f->files[f->n++] = (PredictFile) { .dir = dir, .name = copy, .data = data, .size = size };
        return 0;
}

/* The files of an ESP directory the stub picks up (a missing directory has none). */
static int add_esp_dir(Files *f, const char *esp, const char *esp_dir, const char *dir) {
        _cleanup_free_ char *host = NULL;
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int r;

        /* an ESP is FAT: its names match whatever their case, also on a host copy */
        r = path_join_caseless(esp, esp_dir, &host);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return log_error_errno(r, "Failed to look for %s in %s: %m", esp_dir, esp);
        d = opendir(host);
        if (!d)
                return errno == ENOENT ? 0 : log_error_errno(errno, "Failed to open %s: %m", host);
        while ((de = readdir(d))) {
                _cleanup_free_ char *path = NULL;
                if (de->d_type != DT_REG || !pcr_predict_file_wanted(dir, de->d_name))
                        continue;
                if (asprintf(&path, "%s/%s", host, de->d_name) < 0)
                        return log_oom();
                r = add_file(f, dir, path);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int load_files(const Args *a, Files *f) {
        _cleanup_free_ char *extra = NULL;
        int r = 0;

        STRV_FOREACH(p, a->beside)
                if ((r = add_file(f, NULL, *p)) < 0)
                        return r;
        STRV_FOREACH(p, a->global_credentials)
                if ((r = add_file(f, GLOBAL_CREDENTIALS, *p)) < 0)
                        return r;
        STRV_FOREACH(p, a->global_extensions)
                if ((r = add_file(f, GLOBAL_EXTENSIONS, *p)) < 0)
                        return r;
        if (!a->esp)
                return 0;
        extra = stub_sidecar_extra_dir(a->uki_path);
        if (!extra)
                return log_oom();
        r = add_esp_dir(f, a->esp, extra, NULL);
        if (r >= 0)
                r = add_esp_dir(f, a->esp, GLOBAL_CREDENTIALS, GLOBAL_CREDENTIALS);
        if (r >= 0)
                r = add_esp_dir(f, a->esp, GLOBAL_EXTENSIONS, GLOBAL_EXTENSIONS);
        return r;
}

static const char *event_type_name(uint32_t type) {
        return type == TCG_EV_EVENT_TAG ? "EV_EVENT_TAG" : type == TCG_EV_IPL ? "EV_IPL" : "?";
}

/* The PCRs a UKI boot touches, always all three: an untouched one stays zero, which is what to seal to. */
static const unsigned predicted_pcrs[] = { TPM2_PCR_KERNEL_BOOT, TPM2_PCR_KERNEL_CONFIG, TPM2_PCR_SYSEXTS };

static void print_table(const Args *a, const Prediction *p) {
        char hex[2 * PCR_DIGEST_MAX + 1];

        printf("PCR  BANK    VALUE\n");
        for (size_t i = 0; i < ELEMENTSOF(predicted_pcrs); i++)
                for (PcrBank b = 0; b < _PCR_BANK_MAX; b++)
                        if (a->banks & (1U << b))
                                printf("%3u  %-6s  %s\n", predicted_pcrs[i], pcr_bank_name(b),
                                       pcr_hex(&p->pcrs, predicted_pcrs[i], b, hex));
        if (!a->events)
                return;
        printf("\nPCR  EVENT         DIGEST (first bank)                                               DESCRIPTION\n");
        for (size_t i = 0; i < p->n_events; i++) {
                const PredictedEvent *e = &p->events[i];
                PcrBank first = 0;
                while (!(a->banks & (1U << first)))
                        first++;
                PcrSet one = {};
                memcpy(one.value[0][first], e->digest[first], pcr_bank_digest_size(first));
                printf("%3u  %-12s  %.64s  %s\n", e->pcr, event_type_name(e->type), pcr_hex(&one, 0, first, hex),
                       e->description);
        }
}

static void print_json(const Args *a, const Prediction *p) {
        char hex[2 * PCR_DIGEST_MAX + 1];

        fputs("{\"pcrs\":[", stdout);
        for (size_t i = 0; i < ELEMENTSOF(predicted_pcrs); i++) {
                printf("%s{\"pcr\":%u", i ? "," : "", predicted_pcrs[i]);
                for (PcrBank b = 0; b < _PCR_BANK_MAX; b++)
                        if (a->banks & (1U << b)) {
                                json_write_key(stdout, pcr_bank_name(b), false);
                                json_write_string(stdout, pcr_hex(&p->pcrs, predicted_pcrs[i], b, hex));
                        }
                putchar('}');
        }
        fputs("],\"events\":[", stdout);
        for (size_t i = 0; i < p->n_events; i++) {
                const PredictedEvent *e = &p->events[i];
                printf("%s{\"pcr\":%u,\"type\":\"%s\"", i ? "," : "", e->pcr, event_type_name(e->type));
                if (e->type == TCG_EV_EVENT_TAG)
                        printf(",\"tag\":%u", e->tag);
                json_write_key(stdout, "description", false);
                json_write_string(stdout, e->description);
                for (PcrBank b = 0; b < _PCR_BANK_MAX; b++)
                        if (a->banks & (1U << b)) {
                                PcrSet one = {};
                                memcpy(one.value[0][b], e->digest[b], pcr_bank_digest_size(b));
                                json_write_key(stdout, pcr_bank_name(b), false);
                                json_write_string(stdout, pcr_hex(&one, 0, b, hex));
                        }
                putchar('}');
        }
        puts("]}");
}

enum {
        ARG_PROFILE = 0x100, ARG_OPTIONS, ARG_BOOT_MANAGER, ARG_SMBIOS, ARG_SECURE_BOOT, ARG_CONFIDENTIAL_VM,
        ARG_BESIDE, ARG_GLOBAL, ARG_GLOBAL_EXTENSION, ARG_ESP, ARG_UKI_PATH, ARG_PHASE, ARG_SYSEXT, ARG_BANK, ARG_EVENTS,
        ARG_JSON, ARG_DEVICETREE, ARG_CHID,
};

static const OptionRow measure_options[] = {
        OPTION_ROW_HELP,
        { "profile", 0, ARG_PROFILE, OPTION_REQUIRED, "N", "boot profile N of a multi-profile UKI (\"@N\")", NULL },
        { "options", 0, ARG_OPTIONS, OPTION_REQUIRED, "TEXT",
          "the load options the stub is given (a boot manager's entry options)", NULL },
        { "boot-manager", 0, ARG_BOOT_MANAGER, OPTION_SWITCH, NULL,
          "they came from a boot manager that measured them first (urlboot's,\n"
          "systemd-boot); without UKI: a Type #1 linux entry's options alone", NULL },
        { "smbios-extra", 0, ARG_SMBIOS, OPTION_REQUIRED, "TEXT",
          "SMBIOS type 11 io.systemd.stub.kernel-cmdline-extra=TEXT", NULL },
        { "secure-boot", 0, ARG_SECURE_BOOT, OPTION_SWITCH, NULL,
          "Secure Boot is on: load options are dropped when the UKI has .cmdline", NULL },
        { "confidential-vm", 0, ARG_CONFIDENTIAL_VM, OPTION_SWITCH, NULL,
          "an SEV or TDX guest: no SMBIOS text; with --secure-boot no load options", NULL },
        { "credential", 0, ARG_BESIDE, OPTION_REQUIRED, "FILE",
          "a credential (*.cred) or extension image (*.raw) beside the UKI\n(in UKI.extra.d/ on the ESP)", "file" },
        { "extension", 0, ARG_BESIDE, OPTION_REQUIRED, "FILE", "the same", "file" },
        { "global-credential", 0, ARG_GLOBAL, OPTION_REQUIRED, "FILE", "one in /loader/credentials/", "file" },
        { "global-extension", 0, ARG_GLOBAL_EXTENSION, OPTION_REQUIRED, "FILE", "one in /loader/extensions/", "file" },
        { "esp", 0, ARG_ESP, OPTION_REQUIRED, "DIR", "pick credentials and extensions up from an ESP tree", "dir" },
        { "uki-path", 0, ARG_UKI_PATH, OPTION_REQUIRED, "PATH",
          "with --esp=: the UKI's path in it (EFI/Linux/NAME.efi)", NULL },
        { "phase", 0, ARG_PHASE, OPTION_REQUIRED, "WORD[:WORD...]",
          "systemd-pcrphase words measured later into PCR 11 (enter-initrd, ...)", NULL },
        { "sysext", 0, ARG_SYSEXT, OPTION_REQUIRED, "PATH",
          "a system extension (directory or raw image) systemd-sysext merges\n"
          "after boot, measured into PCR 13 by urlboot-sysext-measure;\n"
          "repeatable, no UKI needed", "file" },
        { "devicetree-compatible", 0, ARG_DEVICETREE, OPTION_REQUIRED, "COMPATIBLE",
          "the firmware has a devicetree whose root is COMPATIBLE: the .dtbauto\n"
          "of that compatible is chosen (measured and installed)", NULL },
        { "chid", 0, ARG_CHID, OPTION_REQUIRED, "TYPE:UUID",
          "the machine's CHID of TYPE (0-17, as systemd-analyze chid prints\n"
          "them): the .dtbauto its .hwids entry names is chosen; repeatable", NULL },
        { "bank", 0, ARG_BANK, OPTION_REQUIRED, "NAME", "sha1, sha256 (default), sha384, sha512; repeatable",
          "words:sha1 sha256 sha384 sha512" },
        { "events", 0, ARG_EVENTS, OPTION_SWITCH, NULL, "list every measurement", NULL },
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "JSON output", NULL },
};

const CommandTable verb_measure_table = {
        .name = "urlbootctl measure",
        .arguments = "[UKI]",
        .summary = "Predict the TPM PCRs a boot of UKI through urlboot's stub (or systemd-stub) ends with:\n"
                   "PCR 11 (the UKI's sections), PCR 12 (command lines not from the UKI, the profile,\n"
                   "credentials, configuration extensions), PCR 13 (system extension images).",
        .options = measure_options,
        .n_options = ELEMENTSOF(measure_options),
        .max_arguments = 1,
        .complete_arguments = "file:efi",
};

/* --chid=TYPE:UUID (TYPE also ext0..ext2, as systemd-analyze chid names 15-17). 0, or <0 (logged). */
static int parse_chid(const char *arg, Args *a) {
        const char *colon = strchr(arg, ':');
        unsigned long t = CHID_TYPES;
        char *end;

        if (colon && startswith(arg, "ext") && colon - arg == 4 && arg[3] >= '0' && arg[3] <= '2')
                t = 15 + (unsigned long) (arg[3] - '0');
        else if (colon && colon > arg && arg[0] >= '0' && arg[0] <= '9') {
                t = strtoul(arg, &end, 10);
                if (end != colon)
                        t = CHID_TYPES;
        }
        if (t >= CHID_TYPES || chid_from_string(colon + 1, &a->chids[t]) < 0)
                return log_usage_error("--chid= takes TYPE:UUID, TYPE 0-17 (or ext0-ext2), not '%s'.", arg);
        a->have_chids = true;
        return 0;
}

/* One option into the arguments: 0, or <0 (logged). */
static int parse_option(int c, const char *arg, Args *a) {
        char *end;
        int b;

        switch (c) {
        case ARG_PROFILE:
                errno = 0;
                a->profile = strtoll(arg, &end, 10);
                /* as the stub reads "@N": 0..UINT32_MAX, the last one meaning the base sections alone */
                if (errno || *end || end == arg || a->profile < 0 || a->profile > UINT32_MAX)
                        return log_usage_error("--profile= takes a number from 0 to 4294967295, not '%s'.", arg);
                break;
        case ARG_OPTIONS:
                a->options = arg;
                break;
        case ARG_BOOT_MANAGER:
                a->boot_manager = true;
                break;
        case ARG_SMBIOS:
                a->smbios_extra = arg;
                break;
        case ARG_SECURE_BOOT:
                a->secure_boot = true;
                break;
        case ARG_CONFIDENTIAL_VM:
                a->confidential_vm = true;
                break;
        case ARG_BESIDE:
                if (strv_extend(&a->beside, arg) < 0)
                        return log_oom();
                break;
        case ARG_GLOBAL:
                if (strv_extend(&a->global_credentials, arg) < 0)
                        return log_oom();
                break;
        case ARG_GLOBAL_EXTENSION:
                if (strv_extend(&a->global_extensions, arg) < 0)
                        return log_oom();
                break;
        case ARG_ESP:
                a->esp = arg;
                break;
        case ARG_UKI_PATH:
                a->uki_path = arg;
                break;
        case ARG_PHASE:
                a->phases = arg;
                break;
        case ARG_SYSEXT:
                if (strv_extend(&a->sysexts, arg) < 0)
                        return log_oom();
                break;
        case ARG_BANK:
                b = pcr_bank_from_name(arg);
                if (b < 0)
                        return log_usage_error("Unknown bank '%s' (sha1, sha256, sha384, sha512).", arg);
                a->banks |= 1U << b;
                break;
        case ARG_EVENTS:
                a->events = true;
                break;
        case ARG_DEVICETREE:
                a->devicetree = true;
                a->devicetree_compatible = arg;
                break;
        case ARG_CHID:
                return parse_chid(arg, a);
        case ARG_JSON:
                a->json = true;
                break;
        }
        return 0;
}

/* 1: run; 0: help printed; <0: error (logged). */
static int parse_argv(int argc, char *argv[], Args *a) {
        OptionParser p;
        char **args;
        int nargs = 0, c = 0, r = 0;

        if (option_parser_init(&p, &verb_measure_table, argc, argv) < 0)
                return log_oom();
        while (r >= 0 && (c = option_next(&p)) > 0) {
                if (c == 'h') {
                        option_parser_done(&p);
                        return command_table_help(&verb_measure_table, stdout);
                }
                r = parse_option(c, p.argument, a);
        }
        if (r >= 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        a->uki = nargs > 0 ? args[0] : NULL;
        if (!a->uki && !(a->boot_manager && a->options) && !a->sysexts)
                return log_usage_error("measure needs a UKI, --boot-manager --options=TEXT for a Type #1 "
                                       "linux entry, or --sysext= (see 'urlbootctl measure --help').");
        if (!a->esp != !a->uki_path)
                return log_usage_error("--esp= and --uki-path= go together (the ESP, and where the UKI is in it).");
        if (a->esp && access(a->esp, F_OK) < 0)
                return log_error_errno(errno, "--esp=%s: %m; give the directory the ESP (or a copy of it) is in.",
                                       a->esp);
        if (!a->banks)
                a->banks = 1U << PCR_BANK_SHA256;
        return 1;
}

static void args_done(Args *a) {
        strv_free(a->beside);
        strv_free(a->global_credentials);
        strv_free(a->global_extensions);
        strv_free(a->sysexts);
}

/* The events urlboot-sysext-measure makes of the images, in the order it makes them (by name). */
static int sysext_events(char **paths, char ***ret) {
        _cleanup_free_ SysextImage *images = calloc(strv_length(paths) + 1, sizeof *images);
        _cleanup_strv_free_ char **texts = NULL;
        size_t n = 0;
        int r = 0;

        if (!images)
                return log_oom();
        STRV_FOREACH(p, paths)
                images[n++].path = *p;
        sysext_images_sort_paths(images, n);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                char *text = NULL;
                r = sysext_event_text_of_image(images[i].path, &text);
                if (r == -EBADMSG)
                        return log_error_errno(EIO, "--sysext=%s: its verity root hash is not hex.", images[i].path);
                if (r < 0)
                        return log_error_errno(r, "--sysext=%s: %m", images[i].path);
                r = strv_consume(&texts, text);
        }
        if (r < 0)
                return log_oom();
        *ret = TAKE_PTR(texts);
        return 0;
}

int verb_measure(int argc, char *argv[], const void *data) {
        _cleanup_(args_done) Args a = { .profile = -1 };
        _cleanup_(files_done) Files files = {};
        _cleanup_(prediction_done) Prediction p = {};
        _cleanup_free_ char *image = NULL;
        _cleanup_strv_free_ char **sysexts = NULL;
        PredictInput in;
        DtbautoMachine machine;
        size_t size = 0;
        int r;

        assert(argv);

        r = parse_argv(argc, argv, &a);
        if (r <= 0)
                return r;
        r = load_files(&a, &files);
        if (r < 0)
                return r;
        if (a.sysexts) {
                r = sysext_events(a.sysexts, &sysexts);
                if (r < 0)
                        return r;
        }
        if (a.uki) {
                r = read_full_file(a.uki, UKI_SIZE_MAX, &image, &size);
                if (r < 0)
                        return log_error_errno(r, "Failed to read the UKI %s: %m", a.uki);
        }
        in = (PredictInput) {
                .uki = image, .uki_size = size, .options = a.options, .profile = a.profile,
                .smbios_extra = a.smbios_extra, .boot_manager = a.boot_manager, .secure_boot = a.secure_boot,
                .confidential_vm = a.confidential_vm,
                .files = files.files, .n_files = files.n, .phases = a.phases,
                .sysexts = sysexts,
        };
        if (a.devicetree || a.have_chids) {
                machine = (DtbautoMachine) { .firmware_devicetree = a.devicetree,
                                             .firmware_compatible = a.devicetree_compatible,
                                             .chids = a.have_chids ? a.chids : NULL };
                in.machine = &machine;
        }
        r = pcr_predict(&in, &p);
        if (r == -EINVAL)
                return log_usage_error("The options and the SMBIOS text must be UTF-8.");
        if (r == -ERANGE)
                return log_error_errno(EIO, "%s has no such profile.", a.uki);
        if (r == -EBADMSG)
                return log_error_errno(EIO, "%s is not a PE image (or a section lies outside it).", a.uki);
        if (r < 0)
                return log_error_errno(r, "Failed to predict the measurements: %m");
        if (a.json)
                print_json(&a, &p);
        else
                print_table(&a, &p);
        return 0;
}
