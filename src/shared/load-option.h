/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UEFI load options (Boot####): encoding "boot this URL", recognising it again, and the device path
 * of any load option (which NIC a network boot used).
 *
 * EFI_LOAD_OPTION: Attributes (u32), FilePathListLength (u16), Description (UTF-16, NUL-terminated),
 * FilePathList; no optional data. The path is one Uri() node and the End node: OVMF and other
 * firmware expand it over their HTTP boot handles.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define LOAD_OPTION_ACTIVE 0x00000001U

/** Encode a load option booting url, described as title. */
int load_option_make_uri(const char *title, const char *url, void **ret, size_t *ret_size);

/**
 * The device path of a load option: points into data.
 * @ret 0, -EBADMSG when the description or the path runs past size
 */
int load_option_file_path(const void *data, size_t size, const void **ret_path, size_t *ret_path_size);

/**
 * If data is a load option whose path is a lone Uri() node, return its URL (and title).
 * @ret 0, -ENOENT for other load options, -EBADMSG for malformed ones
 */
int load_option_get_uri(const void *data, size_t size, char **ret_url, char **ret_title);
