/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA-1 (FIPS 180-4) for the UEFI programs, which have no crypto library: a Computer Hardware ID is a
 * name-based (version 5) UUID, whose definition is SHA-1's. Nothing is trusted on it. Userspace's other
 * hashing is OpenSSL's; the host tests compare the two.
 */
#pragma once

#include "hash-blocks.h"

#define SHA1_DIGEST_SIZE 20

typedef struct Sha1 {
        uint32_t state[5];
        HashBlocks blocks;
} Sha1;

void sha1_init(Sha1 *c);
void sha1_update(Sha1 *c, const void *data, size_t size);
/** The digest; c must be initialized again before it is used once more. */
void sha1_finish(Sha1 *c, uint8_t ret[static SHA1_DIGEST_SIZE]);
