/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A small cache of byte ranges within a byte budget, the least recently used range evicted first (the xz
 * plugin keeps decoded blocks, and compressed ones so that a block the boot read is not fetched again for
 * the copy). Not thread-safe: its user holds a lock.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLOCK_CACHE_SLOTS 256

typedef struct BlockCacheEntry {
        uint64_t offset, size, used;
        uint8_t *data;                  /* NULL: a free slot */
} BlockCacheEntry;

typedef struct BlockCache {
        BlockCacheEntry slot[BLOCK_CACHE_SLOTS];
        uint64_t bytes, budget, clock;
} BlockCache;

/** Copy from the range holding offset, as far as it goes (at most count). @ret bytes copied, 0: not cached */
size_t block_cache_copy(BlockCache *c, void *buf, size_t count, uint64_t offset);

/** Whether a kept range holds offset (without counting as a use). */
bool block_cache_holds(const BlockCache *c, uint64_t offset);

/** Keep [offset, offset + size) (taking data), evicting the least recently used until it fits the budget. */
void block_cache_put(BlockCache *c, uint64_t offset, uint64_t size, uint8_t *data);

void block_cache_done(BlockCache *c);
