/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Sizes as administrators write them: "64M", "1.5G", "4096" (base 1024, as systemd's parse_size()).
 */
#pragma once

#include <stdint.h>

/**
 * Parse a non-negative size: digits, an optional fraction, an optional suffix B, K, M, G, T, P or E.
 * @ret 0, -EINVAL if malformed, -ERANGE if over UINT64_MAX
 */
int parse_size(const char *s, uint64_t *ret);
