/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-stubx64.efi: the UEFI stub of a UKI.
 *
 * Finds .linux, .initrd and .cmdline in its own image, records where it was loaded from
 * (StubDeviceURL when that was a URL: firmware HTTP boot, or a boot manager's uki-url), offers the
 * initrd through LoadFile2 and starts the kernel with the command line.
 */
#include <efi.h>
#include <efilib.h>

#include "device-path.h"
#include "efi-firmware.h"
#include "efi-initrd.h"
#include "efi-log.h"
#include "efi-string.h"
#include "efi-variables.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "printf-fundamental.h"
#include "smbios.h"
#include "string-fundamental.h"

#define STUB_FEATURES                                                                                    \
        (EFI_STUB_FEATURE_REPORT_BOOT_PARTITION | EFI_STUB_FEATURE_REPORT_STUB_PARTITION |                 \
         EFI_STUB_FEATURE_REPORT_URL | EFI_STUB_FEATURE_CMDLINE_SMBIOS | EFI_STUB_FEATURE_MULTI_PROFILE_UKI)

#define SMBIOS_CMDLINE_EXTRA "io.systemd.stub.kernel-cmdline-extra="

typedef struct Section {
        const uint8_t *data;
        size_t size;
} Section;

static bool find_section(EFI_LOADED_IMAGE *li, unsigned profile, const char *name, Section *ret) {
        const uint8_t *d;
        size_t n;

        if (pe_find_profile_section(li->ImageBase, li->ImageSize, profile, name, true, &d, &n) < 0 || n == 0)
                return false;
        *ret = (Section) { .data = d, .size = n };
        return true;
}

/* The load options without a leading "@N" profile selector (which goes to *ret_profile). */
static const CHAR16 *take_profile(EFI_LOADED_IMAGE *li, unsigned *ret_profile, size_t *ret_len) {
        const CHAR16 *o = li->LoadOptions;
        size_t len = li->LoadOptionsSize / sizeof(CHAR16), i = 0;
        unsigned p = 0;

        *ret_profile = 0;
        *ret_len = 0;
        if (!o || len == 0)
                return NULL;
        while (len > 0 && o[len - 1] == 0)
                len--;
        if (len > 1 && o[0] == L'@' && o[1] >= L'0' && o[1] <= L'9') {
                for (i = 1; i < len && o[i] >= L'0' && o[i] <= L'9'; i++)
                        p = p * 10 + (unsigned) (o[i] - L'0');
                while (i < len && o[i] == L' ')
                        i++;
                *ret_profile = p;
        }
        *ret_len = len - i;
        return o + i;
}

static size_t char16_len(const CHAR16 *s) {
        size_t n = 0;

        while (s && s[n])
                n++;
        return n;
}

/* The command line of .cmdline, unless unsigned boots pass their own (as systemd-stub does). */
static CHAR16 *make_cmdline(const CHAR16 *options, size_t options_len, const Section *cmdline) {
        CHAR16 *c;
        size_t n;

        if (options_len > 0 && !secure_boot_enabled() && options[0] > 0x1f) {
                c = fmalloc((options_len + 1) * sizeof(CHAR16));
                if (!c)
                        return NULL;
                fmemcpy(c, options, options_len * sizeof(CHAR16));
                c[options_len] = 0;
                return c;
        }
        if (cmdline->size == 0)
                return NULL;
        /* Trailing NULs and newlines are not part of the command line. */
        n = cmdline->size;
        while (n > 0 && (cmdline->data[n - 1] == 0 || cmdline->data[n - 1] == '\n' || cmdline->data[n - 1] == ' '))
                n--;
        return utf8_to_char16((const char *) cmdline->data, n);
}

typedef struct Extra {
        char *text;     /* UTF-8, words separated by spaces */
} Extra;

static int collect_cmdline_extra(const char *s, size_t n, void *userdata) {
        Extra *e = userdata;
        size_t p = fstrlen(SMBIOS_CMDLINE_EXTRA);
        char *t;

        if (n <= p || fmemcmp(s, SMBIOS_CMDLINE_EXTRA, p) != 0)
                return 0;
        if (e->text)
                t = fasprintf("%s %.*s", e->text, (int) (n - p), s + p);
        else
                t = fasprintf("%.*s", (int) (n - p), s + p);
        if (!t)
                return 0;
        ffree(e->text);
        e->text = t;
        return 0;
}

/* Appends the SMBIOS io.systemd.stub.kernel-cmdline-extra= words (only without Secure Boot, where
 * the command line is not ours to trust anyway). */
static CHAR16 *append_smbios_extra(CHAR16 *cmdline) {
        _cleanup_ffree_ CHAR16 *x = NULL;
        Extra e = {};
        const void *table;
        size_t a = char16_len(cmdline), b, table_size;
        CHAR16 *all;

        if (secure_boot_enabled() || !firmware_smbios_table(&table, &table_size))
                return cmdline;
        (void) smbios_oem_strings_foreach(table, table_size, collect_cmdline_extra, &e);
        if (!e.text)
                return cmdline;
        x = utf8_to_char16(e.text, fstrlen(e.text));
        ffree(e.text);
        if (!x)
                return cmdline;
        b = char16_len(x);
        all = fmalloc((a + 1 + b + 1) * sizeof(CHAR16));
        if (!all)
                return cmdline;
        if (a) {
                fmemcpy(all, cmdline, a * sizeof(CHAR16));
                all[a++] = L' ';
        }
        fmemcpy(all + a, x, (b + 1) * sizeof(CHAR16));
        ffree(cmdline);
        return all;
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
        EFI_LOADED_IMAGE *li = NULL;
        EFI_HANDLE initrd_handle = NULL;
        Section linux_section, initrd_section = {}, cmdline_section = {};
        const CHAR16 *options;
        CHAR16 *cmdline;
        size_t options_len;
        unsigned profile;
        EFI_STATUS s;

        InitializeLib(image, system_table);
        log_program = "urlboot-stub";

        s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **) &li);
        if (EFI_ERROR(s))
                return log_efi_fatal(s, "cannot read our own loaded image");
        options = take_profile(li, &profile, &options_len);
        if (profile >= pe_count_profiles(li->ImageBase, li->ImageSize))
                return log_efi_fatal(EFI_NOT_FOUND, "this UKI has no profile %u (the @N in the load options)", profile);
        if (!find_section(li, profile, ".linux", &linux_section))
                return log_efi_fatal(EFI_NOT_FOUND, "this UKI has no .linux section");
        (void) find_section(li, profile, ".initrd", &initrd_section);
        (void) find_section(li, profile, ".cmdline", &cmdline_section);

        export_variables(li, profile);
        cmdline = append_smbios_extra(make_cmdline(options, options_len, &cmdline_section));

        if (initrd_section.size > 0) {
                s = initrd_register(initrd_section.data, initrd_section.size, &initrd_handle);
                if (EFI_ERROR(s))
                        return log_efi_fatal(s, "cannot offer the initrd");
        }
        s = start_kernel(image, &linux_section, cmdline);
        /* Only a kernel that failed comes back. */
        initrd_unregister(initrd_handle);
        return s;
}
