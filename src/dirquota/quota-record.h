/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The project IDs urlboot-dirquota gave a unit's directories, one small root-only file per unit, so that
 * the next start adopts exactly those (and the unit's hashed candidate) and nothing a directory's owner
 * put on it (security review 2026-12-05, F3).
 *
 *   /var/lib/urlboot/dirquota/UNIT:  StateDirectory=2653349580
 *                                    CacheDirectory=...
 */
#pragma once

#include <stdint.h>

#include "quota-apply.h"

#define QUOTA_RECORD_DIR "/var/lib/urlboot/dirquota"

typedef struct QuotaRecord {
        uint32_t ids[_QUOTA_DIR_TYPE_MAX]; /* 0: none recorded */
} QuotaRecord;

/** Lines TYPE=ID; anything else (unknown types, IDs out of range, junk) is ignored. */
void quota_record_parse(const char *text, QuotaRecord *ret);

/** The file's text for the record (types without an ID are left out); NULL when out of memory. */
char *quota_record_format(const QuotaRecord *r);

/** The unit's record from dir; a missing file is an empty record. */
int quota_record_load(const char *dir, const char *unit, QuotaRecord *ret);

/** Write it atomically (dir is created 0700, the file is 0600); an empty record removes the file. */
int quota_record_save(const char *dir, const char *unit, const QuotaRecord *r);
