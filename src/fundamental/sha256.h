/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA-256 (FIPS 180-4) for the UEFI programs, which have no crypto library: the stub mixes its random
 * seed with it. Userspace hashes with OpenSSL; the host tests compare the two.
 */
#pragma once

#include "hash-blocks.h"

#define SHA256_DIGEST_SIZE 32

typedef struct Sha256 {
        uint32_t state[8];
        HashBlocks blocks;
} Sha256;

void sha256_init(Sha256 *c);
void sha256_update(Sha256 *c, const void *data, size_t size);
/** The digest; c must be initialized again before it is used once more. */
void sha256_finish(Sha256 *c, uint8_t ret[static SHA256_DIGEST_SIZE]);

/** The digest of one buffer. */
void sha256_digest(const void *data, size_t size, uint8_t ret[static SHA256_DIGEST_SIZE]);

/** The digest as 64 lowercase hex digits and a NUL (buf: at least 65 bytes). */
void sha256_to_hex(const uint8_t digest[static SHA256_DIGEST_SIZE], char buf[static 2 * SHA256_DIGEST_SIZE + 1]);

/** Whether the n bytes at s are 64 lowercase hex digits (a digest as sha256_to_hex() writes it). */
bool sha256_hex_valid(const char *s, size_t n);
