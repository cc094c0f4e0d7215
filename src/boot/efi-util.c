/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Small helpers for urlboot's UEFI programs.
 */
#include "device-path.h"
#include "efi-util.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "smbios.h"
#include "string-fundamental.h"
#include "utf16.h"

EFI_GUID loader_vendor_guid = { 0x4a67b082, 0x0a4c, 0x41cf, { 0xb6, 0xc7, 0x44, 0x0b, 0x29, 0xbb, 0x8c, 0x4f } };

/* src/fundamental allocates through these. */
void *fmalloc(size_t size) {
        void *p = NULL;

        if (BS->AllocatePool(EfiLoaderData, size ? size : 1, &p) != EFI_SUCCESS)
                return NULL;
        return p;
}

void ffree(void *p) {
        if (p)
                BS->FreePool(p);
}

CHAR16 *utf8_to_char16(const char *s, UINTN len) {
        void *u = NULL;
        size_t size;

        if (utf8_to_utf16le(s, len, &u, &size) < 0)
                return NULL;
        return u;
}

char *char16_to_utf8(const CHAR16 *s, UINTN len) {
        char *u = NULL;

        if (utf16le_to_utf8(s, len * 2, &u) < 0)
                return NULL;
        return u;
}

void log_line(const char *text) {
        CHAR16 *t = utf8_to_char16(text, fstrlen(text));

        if (t) {
                Print(L"%s\n", t);
                ffree(t);
        }
}

static EFI_STATUS set_raw(const CHAR16 *name, const void *data, UINTN size) {
        return RT->SetVariable((CHAR16 *) name, &loader_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT, size, (void *) data);
}

static EFI_STATUS set_string(const CHAR16 *name, const char *value, UINT32 attributes) {
        void *u = NULL;
        size_t size;
        EFI_STATUS s;

        if (utf8_to_utf16le(value, fstrlen(value), &u, &size) < 0)
                return EFI_INVALID_PARAMETER;
        s = RT->SetVariable((CHAR16 *) name, &loader_vendor_guid, attributes, size, u);
        ffree(u);
        return s;
}

EFI_STATUS set_loader_string(const CHAR16 *name, const char *value) {
        return set_string(name, value, EFI_VARIABLE_VOLATILE_DEFAULT);
}

EFI_STATUS set_loader_string_persistent(const CHAR16 *name, const char *value) {
        return set_string(name, value, EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_VOLATILE_DEFAULT);
}

void delete_loader_variable(const CHAR16 *name) {
        (void) RT->SetVariable((CHAR16 *) name, &loader_vendor_guid, 0, 0, NULL);
}

BOOLEAN loader_variable_exists(const CHAR16 *name) {
        UINTN size = 0;
        EFI_STATUS s = RT->GetVariable((CHAR16 *) name, &loader_vendor_guid, NULL, &size, NULL);

        return s == EFI_BUFFER_TOO_SMALL || s == EFI_SUCCESS;
}

EFI_STATUS set_loader_string_if_unset(const CHAR16 *name, const char *value) {
        if (loader_variable_exists(name))
                return EFI_SUCCESS;
        return set_loader_string(name, value);
}

EFI_STATUS set_loader_u64(const CHAR16 *name, uint64_t value) {
        uint8_t b[8];

        for (int i = 0; i < 8; i++)
                b[i] = (uint8_t) (value >> (8 * i));
        return set_raw(name, b, sizeof b);
}

BOOLEAN secure_boot_enabled(void) {
        EFI_GUID global = EFI_GLOBAL_VARIABLE;
        uint8_t v = 0;
        UINTN size = sizeof v;

        return RT->GetVariable(L"SecureBoot", &global, NULL, &size, &v) == EFI_SUCCESS && size == 1 && v == 1;
}

static char *format_version(const char *prefix, UINT32 rev) {
        /* "PREFIX major.minor" with minor as two digits, like systemd prints it. */
        char buf[160], *t = buf;
        UINTN n = fstrlen(prefix);
        UINT32 major = rev >> 16, minor = rev & 0xffff;

        if (n > 120)
                n = 120;
        fmemcpy(t, prefix, n);
        t += n;
        *t++ = ' ';
        t += fformat_uint(major, t);
        *t++ = '.';
        *t++ = (char) ('0' + (minor / 10) % 10);
        *t++ = (char) ('0' + minor % 10);
        *t = 0;
        return fstrdup(buf);
}

char *firmware_info(void) {
        char *vendor = char16_to_utf8(ST->FirmwareVendor, 64), *r;

        r = format_version(vendor ?: "unknown", ST->FirmwareRevision);
        ffree(vendor);
        return r;
}

char *firmware_type(void) {
        return format_version("UEFI", ST->Hdr.Revision);
}

static EFI_GUID smbios3_guid = { 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } };
static EFI_GUID smbios_guid = { 0xeb9d2d31, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };

/* The entry point is firmware memory, as long as its own length byte says (at most 255 bytes). */
static bool smbios_table(EFI_GUID *guid, const void **ret_table, size_t *ret_size) {
        for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
                EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
                uint64_t address;

                if (CompareGuid(&t->VendorGuid, guid) != 0 ||
                    smbios_table_from_entry_point(t->VendorTable, 255, &address, ret_size) < 0)
                        continue;
                *ret_table = (const void *) (UINTN) address;
                return true;
        }
        return false;
}

void smbios_foreach_oem_string(int (*cb)(const char *s, size_t n, void *userdata), void *userdata) {
        const void *table;
        size_t size;

        if (smbios_table(&smbios3_guid, &table, &size) || smbios_table(&smbios_guid, &table, &size))
                (void) smbios_oem_strings_foreach(table, size, cb, userdata);
}

char *get_loader_string(const CHAR16 *name) {
        CHAR16 buf[256];
        UINTN size = sizeof buf - sizeof(CHAR16);

        if (RT->GetVariable((CHAR16 *) name, &loader_vendor_guid, NULL, &size, buf) != EFI_SUCCESS)
                return NULL;
        buf[size / sizeof(CHAR16)] = 0;
        return char16_to_utf8(buf, size / sizeof(CHAR16));
}

static uint64_t read_tsc(void) {
        uint32_t lo, hi;

        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        return ((uint64_t) hi << 32) | lo;
}

/* TSC ticks per microsecond, measured once over a 1 ms stall (as systemd-boot does). */
static uint64_t tsc_per_usec(void) {
        static uint64_t per_usec;

        if (!per_usec) {
                uint64_t start = read_tsc();
                BS->Stall(1000);
                per_usec = (read_tsc() - start) / 1000;
                if (!per_usec)
                        per_usec = 1;
        }
        return per_usec;
}

uint64_t time_usec(void) {
        return read_tsc() / tsc_per_usec();
}

EFI_STATUS set_loader_time(const CHAR16 *name) {
        char text[21];

        fformat_uint(time_usec(), text);
        return set_loader_string(name, text);
}
