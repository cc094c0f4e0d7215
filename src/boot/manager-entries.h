/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Collecting the menu: loader.conf, Type #1 and #2 entries from the volumes, SMBIOS and built-in entries,
 * sorted and titled as systemd-boot does.
 */
#pragma once

#include <efi.h>

#include "boot-entry.h"

/** Read loader.conf (our volume, else our .loader section) and every entry source, then sort. */
void entries_collect(Menu *m, EFI_LOADED_IMAGE *li);

/** Add the "ID.conf=BODY" records of an .entries section (NUL-separated); rollout marks them so. */
void entries_add_section(Menu *m, const uint8_t *d, size_t n, bool rollout);

/** Sort the menu in systemd-boot's order (bls_entry_compare()). */
void entries_sort(Menu *m);

/** Give every entry its unique title. */
void entries_make_titles(Menu *m);
