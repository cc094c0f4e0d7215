/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing variables into an OVMF variable store file (OVMF_VARS*.fd) while no firmware runs.
 *
 * The file is a firmware volume ("_FVH") holding an authenticated variable store: records that start
 * with 0x55AA, a 60-byte header (state, attributes, monotonic count, time, key index, name and data
 * sizes, vendor GUID), the UTF-16 name and the data, each aligned to 4 bytes. A new value is appended;
 * an older record of the same name is marked deleted, as the firmware itself does.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/**
 * Set (append) a variable in the store in buf (size bytes), in place; data_size 0 removes it.
 * @ret 0, -EBADMSG (not an OVMF variable store), -ENOSPC (store full)
 */
int ovmf_vars_set(uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], uint32_t attributes,
                  const void *data, size_t data_size);

/** Find a variable's current value. @ret 0 with pointer and size into buf, -ENOENT */
int ovmf_vars_get(const uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], const uint8_t **ret,
                  size_t *ret_size);
