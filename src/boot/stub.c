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
#include "efi-string.h"
#include "efi-variables.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "string-fundamental.h"

#define STUB_FEATURES                                                                                    \
        (EFI_STUB_FEATURE_REPORT_BOOT_PARTITION | EFI_STUB_FEATURE_REPORT_STUB_PARTITION |                 \
         EFI_STUB_FEATURE_REPORT_URL | EFI_STUB_FEATURE_CMDLINE_SMBIOS | EFI_STUB_FEATURE_MULTI_PROFILE_UKI)

#define SMBIOS_CMDLINE_EXTRA "io.systemd.stub.kernel-cmdline-extra="

typedef struct Section {
        const uint8_t *data;
        UINTN size;
} Section;

static BOOLEAN find_section(EFI_LOADED_IMAGE *li, unsigned profile, const char *name, Section *ret) {
        const uint8_t *d;
        size_t n;

        if (pe_find_profile_section(li->ImageBase, li->ImageSize, profile, name, TRUE, &d, &n) < 0 || n == 0)
                return FALSE;
        ret->data = d;
        ret->size = n;
        return TRUE;
}

/* The load options without a leading "@N" profile selector (which goes to *ret_profile). */
static const CHAR16 *take_profile(EFI_LOADED_IMAGE *li, unsigned *ret_profile, UINTN *ret_len) {
        const CHAR16 *o = li->LoadOptions;
        UINTN len = li->LoadOptionsSize / sizeof(CHAR16), i = 0;
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

/* The command line of .cmdline, unless unsigned boots pass their own (as systemd-stub does). */
static CHAR16 *make_cmdline(const CHAR16 *options, UINTN options_len, const Section *cmdline, UINTN *ret_bytes) {
        CHAR16 *c = NULL;
        UINTN n;

        if (options_len > 0 && !secure_boot_enabled() && options[0] > 0x1f) {
                c = fmalloc((options_len + 1) * sizeof(CHAR16));
                if (c) {
                        CopyMem(c, (void *) options, options_len * sizeof(CHAR16));
                        c[options_len] = 0;
                }
        } else if (cmdline->size > 0) {
                /* Trailing NULs and newlines are not part of the command line. */
                n = cmdline->size;
                while (n > 0 && (cmdline->data[n - 1] == 0 || cmdline->data[n - 1] == '\n' || cmdline->data[n - 1] == ' '))
                        n--;
                c = utf8_to_char16((const char *) cmdline->data, n);
        }
        if (!c)
                return NULL;
        for (n = 0; c[n]; n++)
                ;
        *ret_bytes = (n + 1) * sizeof(CHAR16);
        return c;
}

typedef struct Extra {
        char *text;     /* UTF-8, words separated by spaces */
} Extra;

static int collect_cmdline_extra(const char *s, size_t n, void *userdata) {
        Extra *e = userdata;
        size_t p = fstrlen(SMBIOS_CMDLINE_EXTRA), old = e->text ? fstrlen(e->text) : 0;
        char *t;

        if (n <= p || fmemcmp(s, SMBIOS_CMDLINE_EXTRA, p) != 0)
                return 0;
        t = fmalloc(old + 1 + (n - p) + 1);
        if (!t)
                return 0;
        if (old) {
                fmemcpy(t, e->text, old);
                t[old++] = ' ';
        }
        fmemcpy(t + old, s + p, n - p);
        t[old + n - p] = 0;
        ffree(e->text);
        e->text = t;
        return 0;
}

/* Appends the SMBIOS io.systemd.stub.kernel-cmdline-extra= words (only without Secure Boot, where
 * the command line is not ours to trust anyway). */
static CHAR16 *append_smbios_extra(CHAR16 *cmdline, UINTN *bytes) {
        Extra e = {};
        CHAR16 *x, *all;
        UINTN a = 0, b = 0;

        if (secure_boot_enabled())
                return cmdline;
        smbios_foreach_oem_string(collect_cmdline_extra, &e);
        if (!e.text)
                return cmdline;
        x = utf8_to_char16(e.text, fstrlen(e.text));
        ffree(e.text);
        if (!x)
                return cmdline;
        while (cmdline && cmdline[a])
                a++;
        while (x[b])
                b++;
        all = fmalloc((a + 1 + b + 1) * sizeof(CHAR16));
        if (!all) {
                ffree(x);
                return cmdline;
        }
        if (a)
                fmemcpy(all, cmdline, a * sizeof(CHAR16));
        if (a)
                all[a++] = L' ';
        fmemcpy(all + a, x, b * sizeof(CHAR16));
        all[a + b] = 0;
        ffree(x);
        ffree(cmdline);
        *bytes = (a + b + 1) * sizeof(CHAR16);
        return all;
}

static void export_variables(EFI_LOADED_IMAGE *li) {
        EFI_DEVICE_PATH *dp = DevicePathFromHandle(li->DeviceHandle);
        char *url = NULL, *part = NULL, *s;

        (void) set_loader_string(L"StubInfo", "urlboot-stub " URLBOOT_VERSION);
        (void) set_loader_u64(L"StubFeatures", STUB_FEATURES);

        if (dp && device_path_find_url(dp, DEVICE_PATH_FIRMWARE_MAX, &url) >= 0) {
                /* Always ours; the loader's only when no loader set it before us. */
                (void) set_loader_string(L"StubDeviceURL", url);
                (void) set_loader_string_if_unset(L"LoaderDeviceURL", url);
                ffree(url);
        }
        if (dp && device_path_find_partition_uuid(dp, DEVICE_PATH_FIRMWARE_MAX, &part) >= 0) {
                (void) set_loader_string(L"StubDevicePartUUID", part);
                (void) set_loader_string_if_unset(L"LoaderDevicePartUUID", part);
                ffree(part);
        }
        if (li->FilePath) {
                CHAR16 *id = DevicePathToStr(li->FilePath);
                if (id) {
                        s = char16_to_utf8(id, 4096);
                        if (s && *s) {
                                (void) set_loader_string(L"StubImageIdentifier", s);
                                (void) set_loader_string_if_unset(L"LoaderImageIdentifier", s);
                        }
                        ffree(s);
                        FreePool(id);
                }
        }
        if ((s = firmware_info())) {
                (void) set_loader_string_if_unset(L"LoaderFirmwareInfo", s);
                ffree(s);
        }
        if ((s = firmware_type())) {
                (void) set_loader_string_if_unset(L"LoaderFirmwareType", s);
                ffree(s);
        }
}

static EFI_STATUS fail(const char *what, EFI_STATUS s) {
        CHAR16 *w = utf8_to_char16(what, fstrlen(what));

        Print(L"urlboot-stub: %s: %r\n", w ?: L"error", s);
        ffree(w);
        /* Leave the message on the screen for a moment before the firmware moves on. */
        BS->Stall(5 * 1000 * 1000);
        return s;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table) {
        EFI_LOADED_IMAGE *li = NULL, *kernel_li = NULL;
        EFI_HANDLE kernel = NULL, initrd_handle = NULL;
        Section linux_section, initrd_section = {}, cmdline_section = {};
        const CHAR16 *options;
        CHAR16 *cmdline;
        UINTN cmdline_bytes = 0, options_len;
        unsigned profile;
        char number[12];
        EFI_STATUS s;

        InitializeLib(image, system_table);

        s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **) &li);
        if (EFI_ERROR(s))
                return fail("cannot read our own loaded image", s);
        options = take_profile(li, &profile, &options_len);
        if (profile >= pe_count_profiles(li->ImageBase, li->ImageSize))
                return fail("this UKI has no such profile (the @N in the load options)", EFI_NOT_FOUND);
        if (!find_section(li, profile, ".linux", &linux_section))
                return fail("this UKI has no .linux section", EFI_NOT_FOUND);
        (void) find_section(li, profile, ".initrd", &initrd_section);
        (void) find_section(li, profile, ".cmdline", &cmdline_section);

        export_variables(li);
        {
                /* StubProfile: the decimal number of the profile that boots */
                unsigned v = profile, k = 0;
                char digits[12];
                do {
                        digits[k++] = (char) ('0' + v % 10);
                        v /= 10;
                } while (v);
                for (unsigned j = 0; j < k; j++)
                        number[j] = digits[k - 1 - j];
                number[k] = 0;
                (void) set_loader_string(L"StubProfile", number);
        }
        cmdline = make_cmdline(options, options_len, &cmdline_section, &cmdline_bytes);
        cmdline = append_smbios_extra(cmdline, &cmdline_bytes);

        if (initrd_section.size > 0) {
                s = initrd_register(initrd_section.data, initrd_section.size, &initrd_handle);
                if (EFI_ERROR(s))
                        return fail("cannot offer the initrd", s);
        }

        s = BS->LoadImage(FALSE, image, NULL, (void *) linux_section.data, linux_section.size, &kernel);
        if (EFI_ERROR(s)) {
                initrd_unregister(initrd_handle);
                return fail("cannot load the kernel", s);
        }
        s = BS->HandleProtocol(kernel, &LoadedImageProtocol, (void **) &kernel_li);
        if (!EFI_ERROR(s) && cmdline) {
                kernel_li->LoadOptions = cmdline;
                kernel_li->LoadOptionsSize = (UINT32) cmdline_bytes;
        }

        s = BS->StartImage(kernel, NULL, NULL);
        /* Only a kernel that failed comes back. */
        initrd_unregister(initrd_handle);
        (void) BS->UnloadImage(kernel);
        return fail("the kernel did not start", s);
}
