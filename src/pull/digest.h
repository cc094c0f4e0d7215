/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA-256 of a stream, with OpenSSL.
 */
#pragma once

#include <stddef.h>

#define SHA256_HEX_SIZE 65

typedef struct Sha256 Sha256;

int sha256_new(Sha256 **ret);
void sha256_free(Sha256 *h);
int sha256_update(Sha256 *h, const void *data, size_t size);
/** Finish and write the lowercase hex digest into hex (65 bytes). */
int sha256_final_hex(Sha256 *h, char hex[SHA256_HEX_SIZE]);
