/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * EFI variables through efivarfs.
 *
 * A variable is the file NAME-GUID under /sys/firmware/efi/efivars ($URLBOOT_EFIVARFS for tests):
 * 4 bytes of attributes (little-endian) followed by the data. efivarfs marks most files immutable,
 * so the flag is cleared before a write or removal. On real efivarfs the file is written with one
 * write() (the kernel applies it atomically); on any other directory through a temporary and rename.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "efivars-fundamental.h"

/** The efivarfs directory in use. */
const char *efivars_dir(void);

/**
 * Read a variable.
 * @v vendor     GUID as text, e.g. EFI_VENDOR_LOADER_STR
 * @v ret_attr   may be NULL
 * @v ret_data   newly allocated, with an extra NUL byte pair after the data; may be NULL
 * @ret          0, -ENOENT if absent, -EBADMSG if shorter than the attribute prefix
 */
int efi_get_variable(const char *name, const char *vendor, uint32_t *ret_attr, void **ret_data, size_t *ret_size);

/** Read a UTF-16LE string variable as UTF-8. */
int efi_get_variable_string(const char *name, const char *vendor, char **ret);

/**
 * Write a variable; size 0 removes it (removing an absent one succeeds).
 * @ret 0 or negative errno
 */
int efi_set_variable(const char *name, const char *vendor, uint32_t attr, const void *data, size_t size);

/** Write a UTF-8 string as NUL-terminated UTF-16LE; NULL removes the variable. */
int efi_set_variable_string(const char *name, const char *vendor, uint32_t attr, const char *value);

/** Parse a GUID string ("4a67b082-0a4c-41cf-b6c7-440b29bb8c4f", any case) as bytes in EFI order. */
int efi_guid_from_string(const char *s, uint8_t ret[16]);
/** Format 16 GUID bytes (EFI order) as lowercase text; buf must hold 37 bytes. */
char *efi_guid_to_string(const uint8_t guid[16], char buf[37]);
