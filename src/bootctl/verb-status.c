/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl status: what the firmware, the boot loader and the stub reported.
 *
 * The labels are systemd bootctl's, so both tools read alike; the "Net Boot URL" lines are what
 * bootctl 252 predates.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "efivars.h"
#include "json-writer.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "pager.h"
#include "rollout-list-view.h"
#include "rollout.h"
#include "signature-list.h"
#include "verb-status.h"

typedef struct Feature {
        uint64_t bit;
        const char *label;
} Feature;

/* bootctl's order: boot counting first, then by bit. */
static const Feature loader_features[] = {
        { EFI_LOADER_FEATURE_BOOT_COUNTING, "Boot counting" },
        { EFI_LOADER_FEATURE_CONFIG_TIMEOUT, "Menu timeout control" },
        { EFI_LOADER_FEATURE_CONFIG_TIMEOUT_ONE_SHOT, "One-shot menu timeout control" },
        { EFI_LOADER_FEATURE_ENTRY_DEFAULT, "Default entry control" },
        { EFI_LOADER_FEATURE_ENTRY_ONESHOT, "One-shot entry control" },
        { EFI_LOADER_FEATURE_XBOOTLDR, "Support for XBOOTLDR partition" },
        { EFI_LOADER_FEATURE_RANDOM_SEED, "Support for passing random seed to OS" },
        { EFI_LOADER_FEATURE_LOAD_DRIVER, "Load drop-in drivers" },
        { EFI_LOADER_FEATURE_SORT_KEY, "Support Type #1 sort-key field" },
        { EFI_LOADER_FEATURE_SAVED_ENTRY, "Support @saved pseudo-entry" },
        { EFI_LOADER_FEATURE_DEVICETREE, "Support Type #1 devicetree field" },
        { EFI_LOADER_FEATURE_SECUREBOOT_ENROLL, "Enroll SecureBoot keys" },
        { EFI_LOADER_FEATURE_RETAIN_SHIM, "Retain SHIM protocols" },
        { EFI_LOADER_FEATURE_MENU_DISABLE, "Menu can be disabled" },
        { EFI_LOADER_FEATURE_MULTI_PROFILE_UKI, "Multi-Profile UKIs are supported" },
        { EFI_LOADER_FEATURE_REPORT_URL, "Loader reports network boot URL" },
        { EFI_LOADER_FEATURE_TYPE1_UKI, "Support Type #1 uki field" },
        { EFI_LOADER_FEATURE_TYPE1_UKI_URL, "Support Type #1 uki-url field" },
        { EFI_LOADER_FEATURE_TPM2_ACTIVE_PCR_BANKS, "Loader reports active TPM2 PCR banks" },
        { EFI_LOADER_FEATURE_KEYBOARD_LAYOUT, "Loader reports firmware keyboard layout" },
        { EFI_LOADER_FEATURE_SMBIOS_MEASURED, "Loader measures SMBIOS information" },
};

static const Feature stub_features[] = {
        { EFI_STUB_FEATURE_REPORT_BOOT_PARTITION, "Stub reports loader partition information" },
        { EFI_STUB_FEATURE_REPORT_STUB_PARTITION, "Stub reports stub partition information" },
        { EFI_STUB_FEATURE_REPORT_URL, "Stub reports network boot URL" },
        { EFI_STUB_FEATURE_PICK_UP_CREDENTIALS, "Picks up credentials from boot partition" },
        { EFI_STUB_FEATURE_PICK_UP_SYSEXTS, "Picks up system extension images from boot partition" },
        { EFI_STUB_FEATURE_PICK_UP_CONFEXTS, "Picks up configuration extension images from boot partition" },
        { EFI_STUB_FEATURE_THREE_PCRS, "Measures kernel+command line+sysexts" },
        { EFI_STUB_FEATURE_RANDOM_SEED, "Support for passing random seed to OS" },
        { EFI_STUB_FEATURE_CMDLINE_ADDONS, "Pick up .cmdline from addons" },
        { EFI_STUB_FEATURE_CMDLINE_SMBIOS, "Pick up .cmdline from SMBIOS Type 11" },
        { EFI_STUB_FEATURE_DEVICETREE_ADDONS, "Pick up .dtb from addons" },
        { EFI_STUB_FEATURE_MULTI_PROFILE_UKI, "Stub understands profile selector" },
        { EFI_STUB_FEATURE_SMBIOS_MEASURED, "Stub measures SMBIOS information" },
};

static char *get_string(const char *name) {
        char *s = NULL;

        if (efi_get_variable_string(name, EFI_VENDOR_LOADER_STR, &s) < 0)
                return NULL;
        return s;
}

static int get_features(const char *name, uint64_t *ret) {
        _cleanup_free_ uint8_t *d = NULL;
        size_t n;
        uint64_t v = 0;
        int r = efi_get_variable(name, EFI_VENDOR_LOADER_STR, NULL, (void **) &d, &n);

        if (r < 0)
                return r;
        for (size_t i = 0; i < n && i < 8; i++)
                v |= (uint64_t) d[i] << (8 * i);
        *ret = v;
        return 0;
}

/* A one-byte variable of the global vendor: 0 or 1, -1 when absent. */
static int global_flag(const char *name) {
        _cleanup_free_ uint8_t *d = NULL;
        size_t n;

        if (efi_get_variable(name, EFI_VENDOR_GLOBAL_STR, NULL, (void **) &d, &n) < 0 || n < 1)
                return -1;
        return d[0] == 1;
}

static int secure_boot(void) {
        return global_flag("SecureBoot");
}

/* UEFI 2.10 32.3's modes, named as bootctl names them. */
static const char *secure_boot_mode(void) {
        if (global_flag("SetupMode") == 1)
                return "setup";
        if (global_flag("AuditMode") == 1)
                return "audit";
        if (global_flag("DeployedMode") == 1)
                return "deployed";
        return "user";
}

/* Booted through shim: shim leaves MokListRT (its MOK list, for the kernel) whenever it ran. The number
 * of certificates in it, or -1. */
static int count_certificate(const uint8_t *der, size_t size, void *userdata) {
        (*(int *) userdata)++;
        return 0;
}

static int shim_mok_certificates(void) {
        _cleanup_free_ uint8_t *d = NULL;
        size_t n;
        int count = 0;

        if (efi_get_variable("MokListRT", EFI_VENDOR_SHIM_STR, NULL, (void **) &d, &n) < 0)
                return -1;
        return esl_foreach_x509(d, n, count_certificate, &count) < 0 ? 0 : count;
}

static char *get_urlboot(const char *name) {
        char *s = NULL;
        size_t n;

        if (efi_get_variable(name, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &s, &n) < 0)
                return NULL;
        /* text of printable ASCII, as the boot manager writes it; anything else is not shown */
        for (size_t i = 0; i < n; i++)
                if ((s[i] < ' ' && s[i] != '\n') || s[i] >= 0x7f) {
                        free(s);
                        return NULL;
                }
        s[n] = 0;       /* efi_get_variable() leaves room for a NUL */
        return s;
}

static bool rollout_running(RolloutRunning *ret) {
        _cleanup_free_ char *t = get_urlboot(URLBOOT_VAR_ROLLOUT_CHOICE), *store_text = NULL;
        _cleanup_free_ RolloutStore *store = NULL;
        RolloutRecord *r;
        size_t n;

        if (!t || rollout_running_parse(t, strlen(t), ret) < 0)
                return false;
        /* its state now: blessed since it started, perhaps */
        if (efi_get_variable(URLBOOT_VAR_ROLLOUT, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &store_text, &n) >= 0 &&
            (store = calloc(1, sizeof(RolloutStore)))) {
                rollout_store_parse(store_text, n, store);
                r = rollout_store_find(store, ret->id);
                if (r)
                        ret->state = r->state;
        }
        return true;
}

typedef struct Section {
        const char *title, *product_var, *features_var, *url_var;
        const Feature *features;
        size_t n_features;
} Section;

static const Section sections[] = {
        { "Current Boot Loader", "LoaderInfo", "LoaderFeatures", "LoaderDeviceURL", loader_features,
          ELEMENTSOF(loader_features) },
        { "Current Stub", "StubInfo", "StubFeatures", "StubDeviceURL", stub_features, ELEMENTSOF(stub_features) },
};

/* The entry list in use and its age by this system's clock; a warning when it is past its max-age. */
static void print_rollout_list(void) {
        RolloutListInfo list;
        const char *warning;
        char text[512];

        if (rollout_list_view_load(&list) < 0)
                return;
        warning = rollout_list_view_warning(rollout_list_view_describe(&list, (uint64_t) time(NULL), text, sizeof text));
        printf("  Rollout List: %s\n", text);
        if (warning)
                log_warning("Warning: %s.", warning);
}

/* As bootctl: without EFI variables there is nothing the firmware or a boot loader told. */
static bool booted_with_efi(void) {
        return access(efivars_dir(), F_OK) == 0;
}

static void print_text(void) {
        bool color = colors_enabled();
        _cleanup_free_ char *fw = get_string("LoaderFirmwareType"), *fwi = get_string("LoaderFirmwareInfo");
        _cleanup_free_ char *cur = get_string("LoaderEntrySelected"), *def = get_string("LoaderEntryDefault");
        _cleanup_free_ char *count = get_string("LoaderBootCountPath");
        int sb = secure_boot();

        printf("System:\n");
        if (!booted_with_efi()) {
                printf("Not booted with EFI\n");
                return;
        }
        if (fw || fwi)
                printf("      Firmware: %s%s%s%s\n", fw ?: "n/a", fwi ? " (" : "", fwi ?: "", fwi ? ")" : "");
        _cleanup_free_ char *ca = get_urlboot(URLBOOT_VAR_TLS_CA);
        RolloutRunning run;
        int moks = shim_mok_certificates();

        if (sb < 0)
                printf("   Secure Boot: unknown\n");
        else
                printf("   Secure Boot: %s (%s)\n", sb ? "enabled" : "disabled", secure_boot_mode());
        if (moks >= 0)
                printf("          Shim: booted through shim (%d MOK certificate%s)\n", moks, moks == 1 ? "" : "s");
        if (ca)
                printf("  HTTPS CA Pin: sha256 %s\n", ca);
        if (rollout_running(&run))
                printf("       Rollout: %s, %s (%s)\n", run.id, run.state == ROLLOUT_GOOD ? "good" : "on trial", run.why);
        print_rollout_list();

        for (size_t s = 0; s < ELEMENTSOF(sections); s++) {
                _cleanup_free_ char *product = get_string(sections[s].product_var), *url = get_string(sections[s].url_var);
                uint64_t f = 0;
                bool have_f = get_features(sections[s].features_var, &f) >= 0;

                if (!product && !have_f && !url)
                        continue;
                printf("\n%s:\n", sections[s].title);
                printf("       Product: %s\n", product ?: "n/a");
                for (size_t i = 0; have_f && i < sections[s].n_features; i++) {
                        bool on = f & sections[s].features[i].bit;

                        /* as bootctl: a green tick, a red cross */
                        printf("%s %s%s%s %s\n", i == 0 ? "      Features:" : "               ",
                               color ? (on ? ANSI_GREEN : ANSI_RED) : "", on ? "✓" : "✗", color ? ANSI_NORMAL : "",
                               sections[s].features[i].label);
                }
                if (url)
                        printf("  Net Boot URL: %s\n", url);
        }
        if (cur || def) {
                printf("\n");
                if (cur)
                        printf(" Current Entry: %s\n", cur);
                if (def)
                        printf(" Default Entry: %s\n", def);
        }
        if (count)
                printf("    Boot Count: %s\n", count);
}

static void print_json(void) {
        _cleanup_free_ char *fw = get_string("LoaderFirmwareType"), *fwi = get_string("LoaderFirmwareInfo");
        _cleanup_free_ char *cur = get_string("LoaderEntrySelected"), *def = get_string("LoaderEntryDefault");
        _cleanup_free_ char *count = get_string("LoaderBootCountPath");
        int sb = secure_boot();

        putchar('{');
        json_write_key(stdout, "bootedWithEFI", true);
        fputs(booted_with_efi() ? "true" : "false", stdout);
        json_write_key(stdout, "firmware", false);
        json_write_string(stdout, fw);
        json_write_key(stdout, "firmwareInfo", false);
        json_write_string(stdout, fwi);
        json_write_key(stdout, "secureBoot", false);
        fputs(sb < 0 ? "null" : sb ? "true" : "false", stdout);
        json_write_key(stdout, "secureBootMode", false);
        json_write_string(stdout, sb < 0 ? NULL : secure_boot_mode());
        _cleanup_free_ char *ca = get_urlboot(URLBOOT_VAR_TLS_CA);
        RolloutRunning run;
        int moks = shim_mok_certificates();

        json_write_key(stdout, "shim", false);
        if (moks >= 0)
                printf("{\"mokCertificates\":%d}", moks);
        else
                fputs("null", stdout);
        json_write_key(stdout, "httpsCaSha256", false);
        json_write_string(stdout, ca);
        json_write_key(stdout, "rollout", false);
        if (rollout_running(&run)) {
                putchar('{');
                json_write_key(stdout, "id", true);
                json_write_string(stdout, run.id);
                json_write_key(stdout, "state", false);
                json_write_string(stdout, rollout_state_to_string(run.state));
                json_write_key(stdout, "why", false);
                json_write_string(stdout, run.why);
                putchar('}');
        } else
                fputs("null", stdout);
        RolloutListInfo list;
        json_write_key(stdout, "rolloutListGeneration", false);
        if (rollout_list_view_load(&list) >= 0)
                printf("%llu", (unsigned long long) list.meta.generation);
        else
                fputs("null", stdout);
        for (size_t s = 0; s < ELEMENTSOF(sections); s++) {
                _cleanup_free_ char *product = get_string(sections[s].product_var), *url = get_string(sections[s].url_var);
                uint64_t f = 0;
                bool have_f = get_features(sections[s].features_var, &f) >= 0, first = true;

                json_write_key(stdout, s == 0 ? "loader" : "stub", false);
                putchar('{');
                json_write_key(stdout, "product", true);
                json_write_string(stdout, product);
                json_write_key(stdout, "url", false);
                json_write_string(stdout, url);
                json_write_key(stdout, "features", false);
                putchar('[');
                for (size_t i = 0; have_f && i < sections[s].n_features; i++)
                        if (f & sections[s].features[i].bit) {
                                if (!first)
                                        putchar(',');
                                json_write_string(stdout, sections[s].features[i].label);
                                first = false;
                        }
                fputs("]}", stdout);
        }
        json_write_key(stdout, "currentEntry", false);
        json_write_string(stdout, cur);
        json_write_key(stdout, "defaultEntry", false);
        json_write_string(stdout, def);
        json_write_key(stdout, "bootCountPath", false);
        json_write_string(stdout, count);
        puts("}");
}

enum { ARG_JSON = 0x100 };

static const OptionRow status_options[] = {
        OPTION_ROW_HELP,
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "print it as JSON", NULL },
};

const CommandTable verb_status_table = {
        .name = "urlbootctl status",
        .summary = "Show the firmware, the boot loader and the stub as they reported themselves in EFI\n"
                   "variables, including the URLs they were network-booted from.",
        .options = status_options,
        .n_options = ELEMENTSOF(status_options),
};

int verb_status(int argc, char *argv[], const void *data) {
        OptionParser p;
        bool json = false;
        char **args;
        int nargs, c, r;

        assert(argv);

        if (option_parser_init(&p, &verb_status_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h': option_parser_done(&p); return command_table_help(&verb_status_table, stdout);
                case ARG_JSON: json = true; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (json)
                print_json();
        else
                print_text();
        return 0;
}
