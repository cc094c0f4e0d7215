/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Computer Hardware IDs (CHIDs), as Windows, fwupd and systemd compute them: a name-based UUID (version 5,
 * SHA-1) in the namespace 70ffd812-4c7f-4c7d-0000-000000000000 over some SMBIOS fields of the machine,
 * each as UTF-16LE, joined by '&'. Type N names which fields (CHID_TYPE_FIELDS); types 0-14 are
 * Microsoft's, 15-17 systemd's additions with the display's EDID panel id. A UKI's .hwids section maps
 * CHIDs to devicetree compatibles (hwids.h).
 */
#pragma once

#include "macro-fundamental.h"

typedef enum ChidField {
        CHID_MANUFACTURER,              /* SMBIOS type 1: Manufacturer */
        CHID_FAMILY,                    /* type 1: Family */
        CHID_PRODUCT_NAME,              /* type 1: Product Name */
        CHID_PRODUCT_SKU,               /* type 1: SKU Number */
        CHID_BASEBOARD_MANUFACTURER,    /* type 2: Manufacturer */
        CHID_BASEBOARD_PRODUCT,         /* type 2: Product */
        CHID_BIOS_VENDOR,               /* type 0: Vendor */
        CHID_BIOS_VERSION,              /* type 0: BIOS Version */
        CHID_BIOS_MAJOR,                /* type 0: System BIOS Major Release, two lowercase hex digits */
        CHID_BIOS_MINOR,                /* type 0: System BIOS Minor Release, the same */
        CHID_ENCLOSURE_TYPE,            /* type 3: Type, lowercase hex without padding ("" for 0) */
        CHID_EDID_PANEL,                /* the EDID's manufacturer letters and product code ("BOE0a1b") */
        _CHID_FIELD_MAX,
} ChidField;

#define CHID_TYPES 18
#define CHID_SIZE 16

/** A CHID in EFI GUID byte order (the first three fields little-endian), as .hwids stores it. */
typedef struct Chid {
        uint8_t bytes[CHID_SIZE];
} Chid;

/** The fields (bit i: ChidField i) CHID type t is made of; 0 for a type past the table. */
uint32_t chid_type_fields(unsigned t);

/**
 * The CHID of type t for these fields (UTF-8; NULL: the machine has none).
 * @ret 0; -ENOENT (ret all zeros) when a field the type needs is NULL or not UTF-8, -EINVAL for a type
 *      past the table, -ENOMEM
 */
int chid_compute(unsigned t, const char *const fields[static _CHID_FIELD_MAX], Chid *ret);

/** Whether every byte of c is zero (what a CHID with a missing field is). */
bool chid_is_null(const Chid *c);

/** c as text, lowercase 8-4-4-4-12 (as fwupd and systemd-analyze chid print it); buf: at least 37 bytes. */
void chid_to_string(const Chid *c, char buf[static 37]);

/** Text (8-4-4-4-12, either case) to a CHID. @ret 0, -EINVAL */
int chid_from_string(const char *s, Chid *ret);

/**
 * The fields systemd-stub takes from the firmware's SMBIOS table (types 1 and 2: manufacturer, family,
 * product name, SKU, the baseboard's manufacturer and product), each without leading spaces and zeros
 * and trailing spaces, "" for a string the machine does not have; the others NULL.
 * @v ret  newly allocated strings (chid_fields_free())
 * @ret 0, -ENOMEM
 */
int chid_fields_from_smbios(const void *table, size_t size, char *ret[static _CHID_FIELD_MAX]);
void chid_fields_free(char *fields[static _CHID_FIELD_MAX]);

/** All the CHIDs of these fields (chid_compute() for each type; a type whose field is missing: zeros). */
void chid_compute_all(const char *const fields[static _CHID_FIELD_MAX], Chid ret[static CHID_TYPES]);
