/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the firmware says about itself: vendor and revisions, and its SMBIOS tables.
 */
#pragma once

#include <efi.h>
#include <efilib.h>

#include "macro-fundamental.h"

/* Device paths from firmware are trusted to end; still, never walk beyond 64 KiB. */
#define DEVICE_PATH_FIRMWARE_MAX 65536

/** "vendor major.minor" of the firmware, and "UEFI major.minor". */
char *firmware_info(void);
char *firmware_type(void);

/**
 * The firmware's SMBIOS structure table (the SMBIOS3 one if there is one, else the 2.x one, which is
 * all QEMU's q35 offers), for smbios_oem_strings_foreach() (src/fundamental/smbios.h).
 * @ret false when the firmware publishes none
 */
bool firmware_smbios_table(const void **ret_table, size_t *ret_size);
