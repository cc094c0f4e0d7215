/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading what an entry names: the bytes first (fetched by URL, or read from the volume when the entry pins
 * them), judged before LoadImage() (src/fundamental/entry-image.h: the pin, a UKI for uki entries), then
 * LoadImage() from memory, which Secure Boot (db, or shim's keys) verifies. A refusal is one line saying which
 * check refused what.
 */
#pragma once

#include <efi.h>

#include "boot-entry.h"
#include "sha256.h"

typedef struct LoadedEntry {
        EFI_HANDLE child;
        uint8_t digest[SHA256_DIGEST_SIZE];     /* of the bytes loaded, when have_digest */
        bool have_digest;
} LoadedEntry;

/**
 * Load the entry's image (not started).
 * @ret EFI_SUCCESS, EFI_SECURITY_VIOLATION for bytes a check refused (logged), or the error of the fetch,
 *      the read or LoadImage() (logged)
 */
EFI_STATUS entry_load(Menu *m, EFI_HANDLE image, BootEntry *e, LoadedEntry *ret);
