/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA256SUMS files: "HEX  NAME", "HEX *NAME" (binary mode) or "HEX NAME", one per line.
 */
#pragma once

#include <stddef.h>

/**
 * Find the digest of name in a SHA256SUMS text.
 * Only complete lines count (a final line without newline is ignored, as systemd does).
 * @v ret_hex  lowercase digest (65 bytes)
 * @ret 0, -ENOENT when name is not listed, -EBADMSG for a malformed line naming it
 */
int checksums_find(const char *text, size_t size, const char *name, char ret_hex[65]);
