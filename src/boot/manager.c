/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootx64.efi: the urlboot boot manager.
 *
 * Started from an ESP, it shows Type #1 and Type #2 entries of that volume (and of XBOOTLDR) as
 * systemd-boot does, configured by \loader\loader.conf. Started over HTTP with no file system behind
 * it (which systemd-boot refuses), its menu comes from SMBIOS type 11 strings and from entries built
 * into its own image (.entries), its configuration from a built-in .loader section. "uki-url" entries
 * are fetched through the firmware's HTTP boot. The rules live in src/fundamental; this is the glue.
 */
#include <efi.h>
#include <efilib.h>

#include "bls-menu.h"
#include "device-path.h"
#include "efi-firmware.h"
#include "efi-cleanup.h"
#include "efi-log.h"
#include "efi-random-seed.h"
#include "efi-shim.h"
#include "efi-tls.h"
#include "efi-string.h"
#include "efi-ticks.h"
#include "efi-tpm.h"
#include "efi-variables.h"
#include "efi-volume.h"
#include "manager-entries.h"
#include "manager-menu.h"
#include "manager-rollout.h"
#include "manager-start.h"
#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "string-fundamental.h"

/* SBAT metadata (shim refuses a second stage without it): the format line, then ours. */
__attribute__((used, section(".sbat"))) static const char sbat[] =
        "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
        "urlboot,1,urlboot,urlboot,"  URLBOOT_VERSION ",https://github.com/urlboot/urlboot\n";

#define LOADER_FEATURES \
        (EFI_LOADER_FEATURE_CONFIG_TIMEOUT | EFI_LOADER_FEATURE_CONFIG_TIMEOUT_ONE_SHOT | \
         EFI_LOADER_FEATURE_ENTRY_DEFAULT | EFI_LOADER_FEATURE_ENTRY_ONESHOT | EFI_LOADER_FEATURE_BOOT_COUNTING | \
         EFI_LOADER_FEATURE_XBOOTLDR | EFI_LOADER_FEATURE_SORT_KEY | EFI_LOADER_FEATURE_SAVED_ENTRY | \
         EFI_LOADER_FEATURE_MENU_DISABLE | EFI_LOADER_FEATURE_MULTI_PROFILE_UKI | EFI_LOADER_FEATURE_REPORT_URL | \
         EFI_LOADER_FEATURE_TYPE1_UKI | EFI_LOADER_FEATURE_TYPE1_UKI_URL | EFI_LOADER_FEATURE_RANDOM_SEED | \
         EFI_LOADER_FEATURE_TPM2_ACTIVE_PCR_BANKS)

static void export_identity(Menu *m, EFI_LOADED_IMAGE *li) {
        EFI_DEVICE_PATH *dp = DevicePathFromHandle(li->DeviceHandle);
        _cleanup_ffree_ char *info = firmware_info(), *type = firmware_type(), *part = NULL;
        char banks[11];

        (void) set_loader_string(L"LoaderInfo", "urlboot " URLBOOT_VERSION);
        (void) set_loader_u64(L"LoaderFeatures", LOADER_FEATURES);
        if (info)
                (void) set_loader_string(L"LoaderFirmwareInfo", info);
        if (type)
                (void) set_loader_string(L"LoaderFirmwareType", type);
        if (dp && device_path_find_url(dp, DEVICE_PATH_FIRMWARE_MAX, &m->own_url) >= 0)
                (void) set_loader_string_if_unset(L"LoaderDeviceURL", m->own_url);
        if (dp && device_path_find_partition_uuid(dp, DEVICE_PATH_FIRMWARE_MAX, &part) >= 0)
                (void) set_loader_string(L"LoaderDevicePartUUID", part);
        if (li->FilePath) {
                _cleanup_ffree_ CHAR16 *text = DevicePathToStr(li->FilePath);
                if (text)
                        m->own_path = char16_to_utf8(text, StrLen(text));
                if (m->own_path)
                        (void) set_loader_string(L"LoaderImageIdentifier", m->own_path);
        }
        fsnprintf(banks, sizeof banks, "0x%08x", tpm_active_pcr_banks());
        (void) set_loader_string(L"LoaderTpm2ActivePcrBanks", banks);
}

static void export_entries(Menu *m) {
        /* LoaderEntries: NUL-terminated UTF-16 IDs, one after the other. */
        _cleanup_ffree_ CHAR16 *all = NULL;
        size_t total = 0, off = 0;

        for (unsigned i = 0; i < m->n; i++)
                total += fstrlen(m->entries[i].bls->id) + 1;
        all = fmalloc((total + 1) * sizeof(CHAR16));
        if (!all)
                return;
        for (unsigned i = 0; i < m->n; i++) {
                _cleanup_ffree_ CHAR16 *id = utf8_to_char16(m->entries[i].bls->id, fstrlen(m->entries[i].bls->id));
                if (!id)
                        continue;
                for (size_t k = 0; id[k]; k++)
                        all[off++] = id[k];
                all[off++] = 0;
        }
        (void) RT->SetVariable(L"LoaderEntries", &loader_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                               off * sizeof(CHAR16), all);
}

/* A timeout variable (LoaderConfigTimeout[OneShot]); the one-shot is deleted once read. */
static uint32_t timeout_variable(const CHAR16 *name, bool delete) {
        _cleanup_ffree_ char *v = get_loader_string(name);
        uint32_t t = LOADER_TIMEOUT_UNSET;

        if (!v)
                return t;
        if (loader_timeout_parse(v, fstrlen(v), &t) < 0)
                t = LOADER_TIMEOUT_UNSET;
        if (delete)
                delete_loader_variable(name);
        return t;
}

static unsigned pick_default(Menu *m) {
        _cleanup_ffree_ char *oneshot = get_loader_string(L"LoaderEntryOneShot");
        _cleanup_ffree_ char *variable = get_loader_string(L"LoaderEntryDefault");
        _cleanup_ffree_ char *saved = get_loader_string(L"LoaderEntryLastBooted");
        BlsDefaultRequest req = {
                .oneshot = oneshot, .variable = variable, .conf = m->conf.default_pattern, .saved = saved,
        };
        BlsEntry *bls[ENTRIES_MAX];

        if (oneshot)
                delete_loader_variable(L"LoaderEntryOneShot");
        m->save_entry = (variable && fstreq(variable, "@saved")) || (req.conf && fstreq(req.conf, "@saved"));
        for (unsigned i = 0; i < m->n; i++)
                bls[i] = m->entries[i].bls;
        return bls_pick_default(bls, m->n, &req);
}

static void no_entries(Menu *m) {
        if (m->have_volume)
                Print(L"urlboot boot manager: no boot entries.\n"
                      L"Add Type #1 files to \\loader\\entries, UKIs to \\EFI\\Linux, or SMBIOS type 11 strings\n"
                      L"'io.systemd.boot.entries-extra:ID.conf=BODY'.\n");
        else
                Print(L"urlboot boot manager: no boot entries.\n"
                      L"This program was started over the network, without a file system: add SMBIOS type 11\n"
                      L"strings 'io.systemd.boot.entries-extra:ID.conf=BODY' or build entries into it\n"
                      L"(urlbootctl build-manager --entry=FILE).\n");
        BS->Stall(10 * 1000 * 1000);
}

/* A seed for the kernel, with the ESP's seed file when we have a volume (systemd-boot's place for it). */
static void pass_random_seed(Menu *m) {
        _cleanup_file_close_ EFI_FILE *root = m->have_volume ? volume_open_root(m->own_device) : NULL;

        (void) random_seed_pass(root);
}

/* After a failed start: say what failed, then reboot or hand back to the firmware. */
static EFI_STATUS start_failed(Menu *m, BootEntry *e, MenuChoice *c, EFI_STATUS s) {
        (void) log_efi(s, "starting '%s' failed", e->title ?: e->bls->id);
        tls_pin_end();
        if (loader_reboot_after_failure(m->conf.reboot_on_error, e->bls->tries_left, e->bls->kind == BLS_KIND_UKI_URL,
                                        c->key_pressed)) {
                log_efi_info("failed to start boot entry. Rebooting in 5 s (reboot-on-error).");
                BS->Stall(5 * 1000 * 1000);
                RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
        }
        log_efi_info("returning to the firmware (reboot-on-error).");
        BS->Stall(3 * 1000 * 1000);
        return s;
}

/* The rollout's choice; when its UKI cannot be fetched or is refused, the next version, in this boot. */
static EFI_STATUS rollout_boot(Menu *m, EFI_HANDLE image, unsigned *index) {
        EFI_STATUS s;
        bool started;

        for (;;) {
                s = start_entry(m, image, &m->entries[*index], NULL, &started);
                if (started || !m->entries[*index].rollout)
                        return s;
                /* the version never ran: no try counted, a fetch failure */
                rollout_note_fetch_failure(m, *index);
                if (!rollout_default(m, index))
                        return s;
        }
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table) {
        EFI_LOADED_IMAGE *li = NULL;
        Menu m = {};
        MenuChoice c;
        uint32_t timeout;
        unsigned selected;
        bool rollout, started;
        EFI_STATUS s;

        InitializeLib(image, system_table);
        (void) set_loader_time(L"LoaderTimeInitUSec");
        s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **) &li);
        if (EFI_ERROR(s))
                return log_efi(s, "cannot read our own loaded image");

        /* a start cut off while our TLS pin was in place left the firmware's own CA list aside */
        tls_owner_recover();
        m.own_device = li->DeviceHandle;
        m.have_volume = volume_exists(li->DeviceHandle);
        export_identity(&m, li);
        entries_collect(&m, li);
        if (m.tls_ca) {
                tls_pin_register(m.tls_ca, m.tls_ca_size);
                tls_export_fingerprints(m.tls_ca, m.tls_ca_size);
        }
        rollout_collect(&m, image);
        console_apply_mode(&m.conf);
        entries_make_titles(&m);
        export_entries(&m);
        Print(L"urlboot boot manager " URLBOOT_VERSION_W L": %u entries%s%s\n", m.n,
              m.own_url ? L", started over the network" : L"", shim_loaded() ? L", through shim" : L"");

        if (m.n == 0) {
                no_entries(&m);
                return shim_exit_status(EFI_NOT_FOUND);
        }

        timeout = loader_timeout_effective(m.conf.timeout, timeout_variable(L"LoaderConfigTimeout", false),
                                           timeout_variable(L"LoaderConfigTimeoutOneShot", true));
        selected = pick_default(&m);
        rollout = rollout_default(&m, &selected);
        c = menu_run(&m, selected, timeout);
        (void) set_loader_time(L"LoaderTimeMenuUSec");
        pass_random_seed(&m);
        if (rollout && c.index == selected && !c.options)
                s = rollout_boot(&m, image, &c.index);
        else
                s = start_entry(&m, image, &m.entries[c.index], c.options, &started);
        return shim_exit_status(start_failed(&m, &m.entries[c.index], &c, s));
}
