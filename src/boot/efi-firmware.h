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
 * Call cb for every SMBIOS type 11 string of the firmware's table (the SMBIOS3 table if there is one,
 * else the 2.x table, which is all QEMU's q35 offers).
 */
void smbios_foreach_oem_string(int (*cb)(const char *s, size_t n, void *userdata), void *userdata);
