/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A set of DNS record types.
 */
#include <assert.h>

#include "refuse-set.h"

size_t refuse_set_count(const RefuseSet *s) {
        size_t n = 0;

        assert(s);

        for (size_t i = 0; i < sizeof(s->bits) / sizeof(s->bits[0]); i++)
                n += (size_t) __builtin_popcountll(s->bits[i]);
        return n;
}

int refuse_set_next(const RefuseSet *s, unsigned from) {
        assert(s);

        for (unsigned t = from; t < 65536; t++) {
                uint64_t word = s->bits[t / 64] >> (t % 64);

                if (word)
                        return (int) (t + (unsigned) __builtin_ctzll(word));
                t |= 63; /* nothing more in this word */
        }
        return -1;
}
