/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA-1 (FIPS 180-4, section 6.1).
 */
#include "assert-fundamental.h"
#include "sha1.h"
#include "string-fundamental.h"

static uint32_t rotl(uint32_t x, unsigned n) {
        return (x << n) | (x >> (32 - n));
}

/* The round function and constant of step t (4.1.1, 4.2.1). */
static uint32_t round_value(size_t t, uint32_t b, uint32_t c, uint32_t d) {
        if (t < 20)
                return ((b & c) | (~b & d)) + 0x5a827999;
        if (t < 40)
                return (b ^ c ^ d) + 0x6ed9eba1;
        if (t < 60)
                return ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc;
        return (b ^ c ^ d) + 0xca62c1d6;
}

static void compress(uint32_t *state, const uint8_t block[static 64]) {
        uint32_t w[80], a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];

        for (size_t t = 0; t < 16; t++)
                w[t] = (uint32_t) block[4 * t] << 24 | (uint32_t) block[4 * t + 1] << 16 |
                       (uint32_t) block[4 * t + 2] << 8 | block[4 * t + 3];
        for (size_t t = 16; t < 80; t++)
                w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
        for (size_t t = 0; t < 80; t++) {
                uint32_t next = rotl(a, 5) + round_value(t, b, c, d) + e + w[t];
                e = d;
                d = c;
                c = rotl(b, 30);
                b = a;
                a = next;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
}

void sha1_init(Sha1 *c) {
        fassert(c);

        *c = (Sha1) { .state = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 } };   /* 5.3.1 */
}

void sha1_update(Sha1 *c, const void *data, size_t size) {
        fassert(c);

        hash_blocks_update(&c->blocks, c->state, compress, data, size);
}

void sha1_finish(Sha1 *c, uint8_t ret[static SHA1_DIGEST_SIZE]) {
        fassert(c);

        hash_blocks_finish(&c->blocks, c->state, compress, ret, 5);
        fmemset(c, 0, sizeof *c);
}
