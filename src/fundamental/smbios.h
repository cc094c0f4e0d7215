/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SMBIOS: finding the structure table from an entry point, walking it for type 11 (OEM strings),
 * and the boot-entry strings in them.
 *
 * The firmware publishes an entry point: "_SM3_" (SMBIOS 3, a 64-bit table address) or "_SM_"
 * (2.x, 32-bit; all QEMU's q35 offers by default). Each structure of the table is a formatted area
 * (type, length, handle, ...) followed by a string set ending in two NUL bytes. QEMU's
 * "-smbios type=11,value=..." adds OEM strings.
 */
#pragma once

#include "macro-fundamental.h"

#define SMBIOS_ENTRIES_EXTRA_PREFIX "io.systemd.boot.entries-extra:"
#define SMBIOS_CMDLINE_EXTRA_PREFIX "io.systemd.stub.kernel-cmdline-extra="

/**
 * Where the structure table is, read from an entry point structure.
 * @v ep    the entry point: "_SM3_" or "_SM_" first
 * @v max   how many bytes of ep may be read; only as many as the entry point's own length are
 * @ret 0, -EBADMSG (no known anchor, or an entry point shorter than its fields)
 */
int smbios_table_from_entry_point(const void *ep, size_t max, uint64_t *ret_address, size_t *ret_size);

/** Called for each OEM string (not NUL-terminated: s[0..n)). Non-zero stops the walk. */
typedef int (*smbios_string_cb)(const char *s, size_t n, void *userdata);

/**
 * Walk the structures of a table (size bytes) and call cb for every string of every type 11.
 * @ret 0, -EBADMSG when a structure runs past the table, or what cb returned
 */
int smbios_oem_strings_foreach(const void *table, size_t size, smbios_string_cb cb, void *userdata);

/**
 * A string field of the first structure of this type: the structure must be at least length_min bytes
 * long (its version has the field), field is the offset of the field's string number.
 * @ret 0 with ret pointing into the table (NUL-terminated there), -ENOENT no such structure or string,
 *      -EBADMSG a structure before it runs past the table
 */
int smbios_structure_string(const void *table, size_t size, uint8_t type, size_t length_min, size_t field,
                            const char **ret);

/**
 * Split "io.systemd.boot.entries-extra:ID.conf=BODY".
 * @ret true with name (ID.conf) and body ranges, false for other strings
 */
bool smbios_entry_split(const char *s, size_t n, const char **ret_name, size_t *ret_name_len, const char **ret_body,
                        size_t *ret_body_len);
