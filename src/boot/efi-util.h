/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Small helpers for urlboot's UEFI programs (gnu-efi): memory for src/fundamental, strings,
 * variables of the Boot Loader Interface, device paths.
 */
#pragma once

#include <efi.h>
#include <efilib.h>

#include "efivars-fundamental.h"

extern EFI_GUID loader_vendor_guid;

/** Print a line on the console (UTF-8 in). */
void log_line(const char *fmt_utf8);

/** Convert UTF-8 to a newly allocated CHAR16 string (NULL when out of memory or invalid). */
CHAR16 *utf8_to_char16(const char *s, UINTN len);

/** Convert CHAR16 to newly allocated UTF-8 (len in CHAR16 units; stops at NUL). */
char *char16_to_utf8(const CHAR16 *s, UINTN len);

/** Set a volatile (boot services + runtime) string variable of the Boot Loader Interface. */
EFI_STATUS set_loader_string(const CHAR16 *name, const char *value_utf8);

/** Set it only when it does not exist yet. */
EFI_STATUS set_loader_string_if_unset(const CHAR16 *name, const char *value_utf8);

/** Set a 64-bit little-endian feature mask. */
EFI_STATUS set_loader_u64(const CHAR16 *name, uint64_t value);

/** Set a non-volatile string variable (LoaderEntryLastBooted). */
EFI_STATUS set_loader_string_persistent(const CHAR16 *name, const char *value_utf8);

/** Remove a variable of the Boot Loader Interface (one-shot settings, once read). */
void delete_loader_variable(const CHAR16 *name);

/** A string variable of the Boot Loader Interface as new UTF-8, or NULL when unset. */
char *get_loader_string(const CHAR16 *name);

/** Microseconds since the CPU started counting (TSC), for LoaderTime*USec. */
uint64_t time_usec(void);

/** Set a LoaderTime*USec variable to now. */
EFI_STATUS set_loader_time(const CHAR16 *name);

/** Whether a Boot Loader Interface variable exists. */
BOOLEAN loader_variable_exists(const CHAR16 *name);

/** Secure Boot enabled (SecureBoot == 1 in the global vendor space). */
BOOLEAN secure_boot_enabled(void);

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
