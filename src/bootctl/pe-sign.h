/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing a PE image that urlbootctl made (UKI, boot manager, entry list), signed for Secure Boot with
 * sbsign when a key is given. Nothing half-written appears under the final name either way.
 */
#pragma once

#include <stddef.h>

/**
 * @v key, cert  PEM key and certificate for sbsign, or both NULL for an unsigned image
 * @ret 0 or a negative errno (logged: this is a verb's helper)
 */
int pe_write_signed(const char *output, const void *data, size_t size, const char *key, const char *cert);
