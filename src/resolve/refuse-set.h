/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A set of DNS record types (all 65536 of them fit in 8 KiB of bits).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct RefuseSet {
        uint64_t bits[65536 / 64];
} RefuseSet;

static inline void refuse_set_clear(RefuseSet *s) {
        memset(s->bits, 0, sizeof(s->bits));
}

static inline void refuse_set_add(RefuseSet *s, uint16_t type) {
        s->bits[type / 64] |= UINT64_C(1) << (type % 64);
}

static inline bool refuse_set_contains(const RefuseSet *s, uint16_t type) {
        return s->bits[type / 64] & (UINT64_C(1) << (type % 64));
}

/** The number of types in the set. */
size_t refuse_set_count(const RefuseSet *s);

/**
 * The next type in the set at or after from.
 * @ret the type, or -1 when there is none
 */
int refuse_set_next(const RefuseSet *s, unsigned from);

#define REFUSE_SET_FOREACH(t, s) for (int t = refuse_set_next((s), 0); t >= 0; t = refuse_set_next((s), t + 1))
