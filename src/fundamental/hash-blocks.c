/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "hash-blocks.h"
#include "string-fundamental.h"

void hash_blocks_update(HashBlocks *h, uint32_t *state, hash_compress_fn compress, const void *data, size_t size) {
        const uint8_t *p = data;

        fassert(h);
        fassert(state);
        fassert(data || size == 0);

        h->length += size;
        while (size > 0) {
                size_t n = MIN(size, sizeof h->block - h->filled);

                fmemcpy(h->block + h->filled, p, n);
                h->filled += n;
                p += n;
                size -= n;
                if (h->filled == sizeof h->block) {
                        compress(state, h->block);
                        h->filled = 0;
                }
        }
}

void hash_blocks_finish(HashBlocks *h, uint32_t *state, hash_compress_fn compress, uint8_t *ret, size_t n_words) {
        uint64_t bits = h->length * 8;
        uint8_t pad[72] = { 0x80 };

        fassert(h);
        fassert(ret);

        /* 0x80, zeros up to 56 mod 64, then the length in bits */
        size_t n = (h->filled < 56 ? 56 : 120) - h->filled;

        for (size_t i = 0; i < 8; i++)
                pad[n + i] = (uint8_t) (bits >> (56 - 8 * i));
        hash_blocks_update(h, state, compress, pad, n + 8);
        for (size_t i = 0; i < n_words; i++)
                for (size_t k = 0; k < 4; k++)
                        ret[4 * i + k] = (uint8_t) (state[i] >> (24 - 8 * k));
        fmemset(h, 0, sizeof *h);
}
