/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A UKI's .hwids section (as ukify --hwids= writes it): which devicetree (by its compatible string) or
 * firmware a machine needs, by the machine's CHIDs (chid.h). Entries of 28 bytes, little-endian: a
 * descriptor (type << 28 | 28), the CHID in EFI GUID order, then two offsets from the section's start
 * of NUL-terminated strings (0: none), the name and the compatible (or firmware id); 28 zero bytes end
 * the entries, the strings follow. The section is untrusted: every offset and string is checked.
 */
#pragma once

#include "chid.h"

enum { HWIDS_DEVICETREE = 1, HWIDS_UEFI_FW = 2 };

#define HWIDS_ENTRY_SIZE 28

typedef struct HwidsEntry {
        unsigned type;                  /* HWIDS_DEVICETREE or HWIDS_UEFI_FW */
        Chid chid;
        const char *name;               /* into the section, NULL when its offset is 0 */
        const char *compatible;         /* (for HWIDS_UEFI_FW: the firmware id) */
} HwidsEntry;

/**
 * Entry i of the section.
 * @ret 0, -ENOENT past the last entry, -EBADMSG when entry i is malformed (an unknown type, an offset
 *      past the section, a string without its NUL)
 */
int hwids_entry(const void *section, size_t size, size_t i, HwidsEntry *ret);

/**
 * The entry of this type for the machine whose CHIDs (by type) are chids: the most specific type first,
 * as systemd-stub matches (17, 16, 15, 3, 6, 8, 10, 4, 5, 7, 9, 11), and for each the entries in their
 * order. A CHID the machine has not (all zeros) matches nothing.
 * @ret 0, -ENOENT no entry matches, -EBADMSG any entry of the section is malformed
 */
int hwids_match(const void *section, size_t size, unsigned type, const Chid chids[static CHID_TYPES],
                HwidsEntry *ret);
