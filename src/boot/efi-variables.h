/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Variables of the Boot Loader Interface (vendor 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f), and the
 * firmware's SecureBoot.
 */
#pragma once

#include <efi.h>
#include <efilib.h>

#include "efivars-fundamental.h"

extern EFI_GUID loader_vendor_guid;
extern EFI_GUID urlboot_vendor_guid;
extern EFI_GUID shim_lock_guid;

/**
 * A variable's bytes into pool memory (ffree()), NUL-terminated beyond its size.
 * @ret EFI_SUCCESS, EFI_NOT_FOUND, EFI_BAD_BUFFER_SIZE when it is larger than max
 */
EFI_STATUS efi_variable_read(EFI_GUID *vendor, const CHAR16 *name, size_t max, void **ret, size_t *ret_size);

/** Set a volatile (boot services + runtime) string variable of the Boot Loader Interface. */
EFI_STATUS set_loader_string(const CHAR16 *name, const char *value_utf8);

/** Set it only when it does not exist yet. */
EFI_STATUS set_loader_string_if_unset(const CHAR16 *name, const char *value_utf8);

/** Set a 64-bit little-endian feature mask. */
EFI_STATUS set_loader_u64(const CHAR16 *name, uint64_t value);

/** A 64-bit little-endian variable (LoaderFeatures); false when unset or shorter. */
bool get_loader_u64(const CHAR16 *name, uint64_t *ret);

/** Set a non-volatile string variable (LoaderEntryLastBooted). */
EFI_STATUS set_loader_string_persistent(const CHAR16 *name, const char *value_utf8);

/** Remove a variable of the Boot Loader Interface (one-shot settings, once read). */
void delete_loader_variable(const CHAR16 *name);

/** A string variable of the Boot Loader Interface as new UTF-8, or NULL when unset. */
char *get_loader_string(const CHAR16 *name);

/** Whether a Boot Loader Interface variable exists. */
bool loader_variable_exists(const CHAR16 *name);

/** Secure Boot enabled (SecureBoot == 1 in the global vendor space). */
bool secure_boot_enabled(void);
