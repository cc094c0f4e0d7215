/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the firmware says about itself: vendor and revisions, and its SMBIOS tables.
 */
#include "efi-firmware.h"
#include "efi-string.h"
#include "memory-fundamental.h"
#include "smbios.h"
#include "string-fundamental.h"

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
