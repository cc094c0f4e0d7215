/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Directory quota usage as systemctl status prints it: "        StateDirectory: 16K (max: 1M)".
 *
 * Sizes follow systemctl 262 (the reference we can run), which leaves out a ".0" that older systemctl
 * versions print ("16.0K"); the scripts' interface is "status --json", with plain numbers.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Room for any quota_format_bytes() result. */
#define QUOTA_FORMAT_BYTES_MAX 32

/**
 * Bytes as systemctl 262's FORMAT_BYTES() writes them: "512B", "16K", "1.5M", "1023.9K" (base 1024, one
 * decimal, truncated, left out when 0). UINT64_MAX gives NULL.
 */
const char *quota_format_bytes(char buf[static QUOTA_FORMAT_BYTES_MAX], uint64_t bytes);

/**
 * The systemctl status line for one directory type: nothing when usage is UINT64_MAX (accounting off),
 * " (max: …)" only when limit is not UINT64_MAX (a quota is enforced).
 */
void quota_print_status_line(FILE *f, const char *type_name, uint64_t usage, uint64_t limit);
