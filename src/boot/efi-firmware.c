/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the firmware says about itself: vendor and revisions, and its SMBIOS tables.
 */
#include "assert-fundamental.h"
#include "efi-firmware.h"
#include "efi-string.h"
#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "smbios.h"

/* "PREFIX major.minor" with the minor revision as two digits, as systemd prints it. */
static char *format_version(const char *prefix, uint32_t revision) {
        return fasprintf("%.120s %u.%02u", prefix, revision >> 16, revision & 0xffff);
}

char *firmware_info(void) {
        _cleanup_ffree_ char *vendor = char16_to_utf8(ST->FirmwareVendor, 64);

        return format_version(vendor ?: "unknown", ST->FirmwareRevision);
}

char *firmware_type(void) {
        return format_version("UEFI", ST->Hdr.Revision);
}

static EFI_GUID smbios3_guid = { 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } };
static EFI_GUID smbios_guid = { 0xeb9d2d31, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };

/* The entry point is firmware memory, as long as its own length byte says (at most 255 bytes). */
static bool smbios_table(EFI_GUID *guid, const void **ret_table, size_t *ret_size) {
        for (size_t i = 0; i < ST->NumberOfTableEntries; i++) {
                EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
                uint64_t address;

                if (CompareGuid(&t->VendorGuid, guid) != 0 ||
                    smbios_table_from_entry_point(t->VendorTable, 255, &address, ret_size) < 0)
                        continue;
                *ret_table = (const void *) (uintptr_t) address;
                return true;
        }
        return false;
}

bool firmware_smbios_table(const void **ret_table, size_t *ret_size) {
        fassert(ret_table);
        fassert(ret_size);

        return smbios_table(&smbios3_guid, ret_table, ret_size) || smbios_table(&smbios_guid, ret_table, ret_size);
}
