/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-stubx64.efi: the UEFI stub of a UKI.
 *
 * Finds .linux, .initrd and .cmdline in its own image (those of the profile "@N" selects), records
 * where it was loaded from (StubDeviceURL when that was a URL: firmware HTTP boot, or a boot
 * manager's uki-url), measures as systemd-stub does (sections into PCR 11; profile, command lines,
 * credentials and configuration extensions into PCR 12; system extensions into PCR 13; the rules in
 * src/fundamental), passes a random seed, installs the devicetree for this machine (the .dtbauto its
 * firmware devicetree or its CHIDs choose, else .dtb), offers the initrd (with the credentials and
 * extension images of the ESP appended) through LoadFile2 and starts the kernel with the command line.
 */
#include <efi.h>
#include <efilib.h>

#include "chid.h"
#include "device-path.h"
#include "devicetree.h"
#include "dtbauto.h"
#include "efi-devicetree.h"
#include "efi-firmware.h"
#include "errno-fundamental.h"
#include "efi-initrd.h"
#include "efi-log.h"
#include "efi-random-seed.h"
#include "efi-string.h"
#include "efi-tpm.h"
#include "efi-variables.h"
#include "efi-volume.h"
#include "efi-cleanup.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "printf-fundamental.h"
#include "smbios.h"
#include "string-fundamental.h"
#include "efi-vmm.h"
#include "initrd-concat.h"
#include "stub-cmdline.h"
#include "stub-extras.h"
#include "stub-measure.h"
#include "uki-measure.h"

#define STUB_FEATURES                                                                                         \
        (EFI_STUB_FEATURE_REPORT_BOOT_PARTITION | EFI_STUB_FEATURE_REPORT_STUB_PARTITION |                      \
         EFI_STUB_FEATURE_REPORT_URL | EFI_STUB_FEATURE_CMDLINE_SMBIOS | EFI_STUB_FEATURE_MULTI_PROFILE_UKI |   \
         EFI_STUB_FEATURE_THREE_PCRS | EFI_STUB_FEATURE_RANDOM_SEED | EFI_STUB_FEATURE_PICK_UP_CREDENTIALS |    \
         EFI_STUB_FEATURE_PICK_UP_SYSEXTS | EFI_STUB_FEATURE_PICK_UP_CONFEXTS)

typedef struct Section {
        const uint8_t *data;
        size_t size;
} Section;

/* What the stub measured, by the variable that reports it. */
typedef struct Measured {
        TpmMeasured sections;           /* StubPcrKernelImage */
        TpmMeasured parameters;         /* StubPcrKernelParameters */
} Measured;

static bool find_section(EFI_LOADED_IMAGE *li, unsigned profile, const char *name, Section *ret) {
        const uint8_t *d;
        size_t n;

        if (pe_find_profile_section(li->ImageBase, li->ImageSize, profile, name, true, &d, &n) < 0 || n == 0)
                return false;
        *ret = (Section) { .data = d, .size = n };
        return true;
}

static size_t char16_len(const CHAR16 *s) {
        size_t n = 0;

        while (s && s[n])
                n++;
        return n;
}

/* The load options as systemd-stub reads them: a copy, "@N" taken off (into *ret_profile), cleaned
 * up; NULL when there are none or they are not text. */
static uint16_t *read_options(EFI_LOADED_IMAGE *li, unsigned *ret_profile, size_t *ret_len) {
        size_t n = li->LoadOptionsSize / sizeof(uint16_t), skip, len;
        uint16_t *o;

        *ret_profile = 0;
        *ret_len = 0;
        if (!li->LoadOptions || n == 0 || !stub_options_are_text(li->LoadOptions, n))
                return NULL;
        o = fmalloc((n + 1) * sizeof(uint16_t));
        if (!o)
                return NULL;
        fmemcpy(o, li->LoadOptions, n * sizeof(uint16_t));
        o[n] = 0;
        skip = stub_options_profile(o, n, ret_profile);
        len = stub_cmdline_mangle(o + skip, n - skip);
        fmemcpy(o, o + skip, len * sizeof(uint16_t));
        o[len] = 0;
        *ret_len = len;
        return o;
}

/* UTF-8 text (a section, an SMBIOS string) as a cleaned-up UTF-16 command line, or NULL when empty. */
static uint16_t *cleaned_cmdline(const char *text, size_t n) {
        uint16_t *c = utf8_to_char16(text, n);
        size_t len;

        if (!c)
                return NULL;
        len = stub_cmdline_mangle(c, char16_len(c));
        c[len] = 0;
        if (len == 0) {
                ffree(c);
                return NULL;
        }
        return c;
}

typedef struct SmbiosExtra {
        uint16_t *text;
} SmbiosExtra;

/* The first io.systemd.stub.kernel-cmdline-extra= string counts, as in systemd-stub. */
static int find_smbios_extra(const char *s, size_t n, void *userdata) {
        SmbiosExtra *x = userdata;
        size_t p = fstrlen(SMBIOS_CMDLINE_EXTRA_PREFIX);

        if (n < p || fmemcmp(s, SMBIOS_CMDLINE_EXTRA_PREFIX, p) != 0)
                return 0;
        x->text = cleaned_cmdline(s + p, n - p);
        return 1;
}

static uint16_t *smbios_extra(void) {
        SmbiosExtra x = {};
        const void *table;
        size_t size;

        if (firmware_smbios_table(&table, &size))
                (void) smbios_oem_strings_foreach(table, size, find_smbios_extra, &x);
        return x.text;
}

/* "BASE EXTRA", either may be missing; NULL when both are. Takes both. */
static CHAR16 *join_cmdline(uint16_t *base, uint16_t *extra) {
        size_t a = char16_len(base), b = char16_len(extra);
        CHAR16 *all;

        if (!extra)
                return base;
        if (!base)
                return extra;
        all = fmalloc((a + 1 + b + 1) * sizeof(CHAR16));
        if (all) {
                fmemcpy(all, base, a * sizeof(CHAR16));
                all[a] = L' ';
                fmemcpy(all + a + 1, extra, (b + 1) * sizeof(CHAR16));
        }
        ffree(base);
        ffree(extra);
        return all;
}

/* The command line the kernel gets, measuring what did not come from a signed section. */
static CHAR16 *settle_cmdline(uint16_t *options, size_t options_len, const Section *cmdline, Measured *m) {
        _cleanup_ffree_ uint16_t *extra = smbios_extra();
        StubParameters p = {
                .options = options, .options_len = options_len, .smbios_extra = extra,
                .smbios_extra_len = char16_len(extra), .secure_boot = secure_boot_enabled(),
                .uki_has_cmdline = cmdline->size > 0, .confidential_vm = is_confidential_vm(),
        };
        uint16_t *base;

        (void) stub_measure_cmdlines(&p, tpm_measure_cb, &m->parameters);
        if (stub_options_used(&p))
                base = options;
        else {
                ffree(options);
                base = cmdline->size > 0 ? cleaned_cmdline((const char *) cmdline->data,
                                                           fstrnlen((const char *) cmdline->data, cmdline->size))
                                         : NULL;
        }
        if (!stub_smbios_extra_used(&p)) {
                ffree(extra);
                extra = NULL;
        }
        return join_cmdline(base, TAKE_PTR(extra));
}

static void export_variables(EFI_LOADED_IMAGE *li, unsigned profile) {
        EFI_DEVICE_PATH *dp = DevicePathFromHandle(li->DeviceHandle);
        _cleanup_ffree_ char *url = NULL, *part = NULL, *info = firmware_info(), *type = firmware_type();
        char number[21];

        (void) set_loader_string(L"StubInfo", "urlboot-stub " URLBOOT_VERSION);
        (void) set_loader_u64(L"StubFeatures", STUB_FEATURES);
        (void) fformat_uint(profile, number);
        (void) set_loader_string(L"StubProfile", number);

        if (dp && device_path_find_url(dp, DEVICE_PATH_FIRMWARE_MAX, &url) >= 0) {
                /* Always ours; the loader's only when no loader set it before us. */
                (void) set_loader_string(L"StubDeviceURL", url);
                (void) set_loader_string_if_unset(L"LoaderDeviceURL", url);
        }
        if (dp && device_path_find_partition_uuid(dp, DEVICE_PATH_FIRMWARE_MAX, &part) >= 0) {
                (void) set_loader_string(L"StubDevicePartUUID", part);
                (void) set_loader_string_if_unset(L"LoaderDevicePartUUID", part);
        }
        if (li->FilePath) {
                _cleanup_ffree_ CHAR16 *id = DevicePathToStr(li->FilePath);
                _cleanup_ffree_ char *s = id ? char16_to_utf8(id, 4096) : NULL;
                if (s && *s) {
                        (void) set_loader_string(L"StubImageIdentifier", s);
                        (void) set_loader_string_if_unset(L"LoaderImageIdentifier", s);
                }
        }
        if (info)
                (void) set_loader_string_if_unset(L"LoaderFirmwareInfo", info);
        if (type)
                (void) set_loader_string_if_unset(L"LoaderFirmwareType", type);
        if (!loader_variable_exists(L"LoaderTpm2ActivePcrBanks")) {
                char banks[11];
                fsnprintf(banks, sizeof banks, "0x%08x", tpm_active_pcr_banks());
                (void) set_loader_string(L"LoaderTpm2ActivePcrBanks", banks);
        }
}

/* StubPcr*: which PCR each kind of measurement went to, set only when all of that kind were measured. */
static void export_pcr_variable(const CHAR16 *name, TpmMeasured m, unsigned pcr) {
        char number[21];

        if (m != TPM_MEASURED_ALL)
                return;
        (void) fformat_uint(pcr, number);
        (void) set_loader_string(name, number);
}

/* A boot manager of ours or systemd's passed a seed already (LoaderFeatures says so); else we do. */
static void pass_random_seed(EFI_LOADED_IMAGE *li) {
        _cleanup_file_close_ EFI_FILE *root = NULL;
        uint64_t features = 0;

        if (get_loader_u64(L"LoaderFeatures", &features) && (features & EFI_LOADER_FEATURE_RANDOM_SEED))
                return;
        root = volume_open_root(li->DeviceHandle);
        (void) random_seed_pass(root);
}

/* Early microcode (.ucode), the .initrd section and the archives from the ESP, in systemd-stub's order
 * (initrd-concat.h); the kernel unpacks them one after the other. */
static EFI_STATUS combine_initrds(const Section *ucode, const Section *initrd, const StubExtras *x, void **ret,
                                  size_t *ret_size) {
        InitrdPiece pieces[2 + STUB_EXTRAS_MAX] = {
                { ucode->data, ucode->size },
                { initrd->data, initrd->size },
        };
        bool allocated;

        for (size_t i = 0; i < STUB_EXTRAS_MAX; i++)
                pieces[2 + i] = (InitrdPiece) { x->archive[i], x->size[i] };
        return initrd_concat(pieces, ELEMENTSOF(pieces), ret, ret_size, &allocated) < 0 ? EFI_OUT_OF_RESOURCES
                                                                                       : EFI_SUCCESS;
}

/* The .dtbauto chosen for this machine (dtbauto.h): by the firmware's devicetree where it has one, else by
 * the CHIDs of its SMBIOS fields (a missing string is hashed as "", as systemd-stub does). */
static bool choose_dtbauto(EFI_LOADED_IMAGE *li, unsigned profile, PeSectionData *ret, const char **ret_compatible) {
        char *fields[_CHID_FIELD_MAX] = {};
        Chid chids[CHID_TYPES] = {};
        DtbautoMachine m = {};
        const void *fw, *table = NULL;
        size_t fw_size, size = 0;
        int r;

        /* (the profile's own .dtbauto, else the base's) */
        if (!find_section(li, profile, ".dtbauto", &(Section) {}))
                return false;   /* most UKIs: nothing to choose, no CHIDs to compute */
        fw = firmware_devicetree(&fw_size);
        if (fw) {
                m.firmware_devicetree = true;
                (void) fdt_root_compatible(fw, fw_size, &m.firmware_compatible);
        } else {
                (void) firmware_smbios_table(&table, &size);
                if (chid_fields_from_smbios(table, size, fields) == 0) {
                        chid_compute_all((const char *const *) fields, chids);
                        m.chids = chids;
                }
        }
        r = uki_dtbauto_select(li->ImageBase, li->ImageSize, true, profile, &m, ret, ret_compatible);
        chid_fields_free(fields);
        if (r == -EBADMSG)
                log_efi(EFI_INVALID_PARAMETER, "this UKI's .hwids is malformed: no .dtbauto is chosen");
        return r == 0;
}

/* The chosen .dtbauto, else .dtb, becomes the kernel's devicetree; neither: the firmware's stays. */
static void install_devicetree(const PeSectionData *dtbauto, const char *compatible, const Section *dtb,
                               DevicetreeState *state) {
        const void *blob = dtbauto ? dtbauto->data : dtb->data;
        size_t size = dtbauto ? dtbauto->size : dtb->size;
        EFI_STATUS s;

        if (!blob || size == 0)
                return;
        s = devicetree_install(blob, size, state);
        if (EFI_ERROR(s))
                (void) log_efi(s, "cannot install the UKI's devicetree, the firmware's stays");
        else if (dtbauto)
                log_efi_info("devicetree for %s (.dtbauto)", compatible ?: "this machine");
}

/* Loads the kernel from its section, hands it the command line and starts it: returns only on failure. */
static EFI_STATUS start_kernel(EFI_HANDLE image, const Section *linux_section, CHAR16 *cmdline) {
        EFI_LOADED_IMAGE *kernel_li = NULL;
        EFI_HANDLE kernel = NULL;
        EFI_STATUS s;

        s = BS->LoadImage(FALSE, image, NULL, (void *) linux_section->data, linux_section->size, &kernel);
        if (EFI_ERROR(s))
                return log_efi_fatal(s, "cannot load the kernel");
        s = BS->HandleProtocol(kernel, &LoadedImageProtocol, (void **) &kernel_li);
        if (!EFI_ERROR(s) && cmdline) {
                kernel_li->LoadOptions = cmdline;
                kernel_li->LoadOptionsSize = (UINT32) ((char16_len(cmdline) + 1) * sizeof(CHAR16));
        }
        s = BS->StartImage(kernel, NULL, NULL);
        (void) BS->UnloadImage(kernel);
        return log_efi_fatal(s, "the kernel did not start");
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table) {
        _cleanup_(stub_extras_done) StubExtras extras = {};
        /* efi_main() returns only when the kernel did not start: the firmware's devicetree back then */
        _cleanup_(devicetree_restore) DevicetreeState devicetree = {};
        EFI_LOADED_IMAGE *li = NULL;
        EFI_HANDLE initrd_handle = NULL;
        Section linux_section, initrd_section = {}, cmdline_section = {}, ucode_section = {}, dtb_section = {};
        PeSectionData dtbauto;
        const char *compatible = NULL;
        bool have_dtbauto;
        Measured m = {};
        StubProfileText profile_text;
        MeasureEvent profile_event;
        uint16_t *options;
        CHAR16 *cmdline;
        void *initrd = NULL;
        size_t options_len, initrd_size = 0;
        unsigned profile;
        EFI_STATUS s;

        InitializeLib(image, system_table);
        log_program = "urlboot-stub";

        s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **) &li);
        if (EFI_ERROR(s))
                return log_efi_fatal(s, "cannot read our own loaded image");
        options = read_options(li, &profile, &options_len);
        if (!pe_profile_exists(li->ImageBase, li->ImageSize, profile))
                return log_efi_fatal(EFI_NOT_FOUND, "this UKI has no profile %u (the @N in the load options)", profile);
        if (!find_section(li, profile, ".linux", &linux_section))
                return log_efi_fatal(EFI_NOT_FOUND, "this UKI has no .linux section");
        (void) find_section(li, profile, ".initrd", &initrd_section);
        (void) find_section(li, profile, ".ucode", &ucode_section);
        (void) find_section(li, profile, ".cmdline", &cmdline_section);
        (void) find_section(li, profile, ".dtb", &dtb_section);
        have_dtbauto = choose_dtbauto(li, profile, &dtbauto, &compatible);

        /* systemd-stub's order: the profile, the sections, the command lines, then the ESP's files */
        if (stub_measure_profile(profile, &profile_text, &profile_event))
                (void) tpm_measure_cb(&profile_event, &m.parameters);
        (void) uki_measure_sections(li->ImageBase, li->ImageSize, true, profile, have_dtbauto ? &dtbauto : NULL,
                                    tpm_measure_cb, &m.sections);
        pass_random_seed(li);
        cmdline = settle_cmdline(options, options_len, &cmdline_section, &m);
        export_variables(li, profile);
        stub_extras_collect(li, &extras);
        if (extras.measured[STUB_SIDECAR_PARAMETERS] == TPM_MEASURED_NOT_ALL ||
            (extras.measured[STUB_SIDECAR_PARAMETERS] == TPM_MEASURED_ALL && m.parameters == TPM_MEASURED_NOTHING))
                m.parameters = extras.measured[STUB_SIDECAR_PARAMETERS];
        export_pcr_variable(L"StubPcrKernelImage", m.sections, TPM2_PCR_KERNEL_BOOT);
        export_pcr_variable(L"StubPcrKernelParameters", m.parameters, TPM2_PCR_KERNEL_CONFIG);
        export_pcr_variable(L"StubPcrInitRDSysExts", extras.measured[STUB_SIDECAR_SYSEXTS], TPM2_PCR_SYSEXTS);
        export_pcr_variable(L"StubPcrInitRDConfExts", extras.measured[STUB_SIDECAR_CONFEXTS], TPM2_PCR_KERNEL_CONFIG);

        install_devicetree(have_dtbauto ? &dtbauto : NULL, compatible, &dtb_section, &devicetree);
        s = combine_initrds(&ucode_section, &initrd_section, &extras, &initrd, &initrd_size);
        if (EFI_ERROR(s))
                return log_efi_fatal(s, "cannot put the initrd together");
        if (initrd_size > 0) {
                s = initrd_register(initrd, initrd_size, &initrd_handle);
                if (EFI_ERROR(s))
                        return log_efi_fatal(s, "cannot offer the initrd");
        }
        s = start_kernel(image, &linux_section, cmdline);
        /* Only a kernel that failed comes back. */
        initrd_unregister(initrd_handle);
        return s;
}
