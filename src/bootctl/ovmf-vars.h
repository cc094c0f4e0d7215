/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing variables into an OVMF variable store file (OVMF_VARS*.fd) while no firmware runs.
 *
 * The file is a firmware volume ("_FVH") whose header (56 bytes and a block map) is followed by a
 * variable store header (GUID, size, format 0x5a, state 0xfe) and the records: each starts with 0x55AA,
 * then a 60-byte header in an authenticated store (state, attributes, monotonic count, time, key index,
 * name and data sizes, vendor GUID) or a 32-byte one in a plain store (older OVMF without Secure Boot:
 * no count, time or key index), the UTF-16 name and the data, each aligned to 4 bytes. A new value is
 * appended; an older record of the same name is marked deleted, as the firmware itself does.
 *
 * Nothing is written into a file whose headers are not all of that (security review 2026-12-06, G6: a
 * header length below the real header made a new record overwrite the volume header).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/**
 * Whether buf (size bytes) is a variable store this code can write: the volume's signature, its length
 * within the file, a header length of at least 72 bytes (with a block map that ends inside it), even and
 * within the volume; the store's GUID (authenticated or plain), format, state, and size within the volume.
 * @v error  filled with what is wrong, for "FILE is not an OVMF variable store: ..." (error_size may be 0)
 * @ret 0, -EBADMSG
 */
int ovmf_vars_check(const uint8_t *buf, size_t size, char *error, size_t error_size);

/**
 * Set (append) a variable in the store in buf (size bytes), in place; data_size 0 removes it.
 * @ret 0, -EBADMSG (not an OVMF variable store), -ENOSPC (store full)
 */
int ovmf_vars_set(uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], uint32_t attributes,
                  const void *data, size_t data_size);

/** Find a variable's current value. @ret 0 with pointer and size into buf, -ENOENT */
int ovmf_vars_get(const uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], const uint8_t **ret,
                  size_t *ret_size);
