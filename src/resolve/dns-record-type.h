/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * DNS record type names as systemd v258's resolved knows them.
 *
 * RefuseRecordTypes= accepts these names in any case ("AAAA", "aaaa", "NSAP-PTR": resolved's name
 * table is a gperf table built with --ignore-case, and resolved 262 was seen to accept "Txt"), or
 * "TYPEnnn" with the prefix in any case and nnn a number up to 65535 in systemd's integer syntax
 * (decimal, "0x" hex, "0o"/leading-zero octal, "0b" binary, optional "+").
 */
#pragma once

#include <stdint.h>

/**
 * Parse a record type the way v258's dns_type_from_string() does.
 *
 * @v s    the word
 * @ret    the type (0…65535) or -EINVAL
 */
int dns_record_type_from_string(const char *s);

/**
 * The name v258 prints for a type: its mnemonic, or NULL for a type without one (callers print
 * "TYPEnnn" then).
 */
const char *dns_record_type_to_string(uint16_t type);
