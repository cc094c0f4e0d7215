/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A UKI's .hwids section (src/fundamental/hwids.h) from a directory of device descriptions, the JSON files
 * ukify --hwids= reads: {"type": "devicetree", "name": ..., "compatible": ..., "hwids": [CHID, ...]} (or
 * "uefi-fw" with "fwid"). Files are read in the order of their paths, recursively; descriptions of the same
 * device (type, name, compatible) are merged; each device's CHIDs are sorted, one entry each; the strings
 * follow, each once, sorted: the bytes ukify writes for the same descriptions.
 */
#pragma once

#include <stddef.h>

/**
 * @ret 0 with a newly allocated section; <0 after one line naming the file and what is wrong (-EINVAL
 *      for a description that is not one, or errno)
 */
int hwids_build_from_dir(const char *dir, void **ret, size_t *ret_size);
