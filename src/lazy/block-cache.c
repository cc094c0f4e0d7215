/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Byte ranges within a budget.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "block-cache.h"

size_t block_cache_copy(BlockCache *c, void *buf, size_t count, uint64_t offset) {
        assert(c);
        assert(buf);

        for (size_t i = 0; i < BLOCK_CACHE_SLOTS; i++) {
                BlockCacheEntry *e = &c->slot[i];
                uint64_t left;

                if (!e->data || offset < e->offset || offset - e->offset >= e->size)
                        continue;
                left = e->size - (offset - e->offset);
                if (left < count)
                        count = (size_t) left;
                memcpy(buf, e->data + (offset - e->offset), count);
                e->used = ++c->clock;
                return count;
        }
        return 0;
}

bool block_cache_holds(const BlockCache *c, uint64_t offset) {
        assert(c);

        for (size_t i = 0; i < BLOCK_CACHE_SLOTS; i++)
                if (c->slot[i].data && offset >= c->slot[i].offset && offset - c->slot[i].offset < c->slot[i].size)
                        return true;
        return false;
}

static void evict(BlockCache *c, BlockCacheEntry *e) {
        c->bytes -= e->size;
        free(e->data);
        *e = (BlockCacheEntry) {};
}

void block_cache_put(BlockCache *c, uint64_t offset, uint64_t size, uint8_t *data) {
        assert(c);
        assert(data);

        for (;;) {
                BlockCacheEntry *victim = NULL, *empty = NULL;

                for (size_t i = 0; i < BLOCK_CACHE_SLOTS; i++) {
                        if (!c->slot[i].data)
                                empty = empty ?: &c->slot[i];
                        else if (!victim || c->slot[i].used < victim->used)
                                victim = &c->slot[i];
                }
                /* one range larger than the budget is still kept, alone: the reader is about to copy from it */
                if (empty && (c->bytes + size <= c->budget || !victim)) {
                        *empty = (BlockCacheEntry) { .offset = offset, .size = size, .used = ++c->clock, .data = data };
                        c->bytes += size;
                        return;
                }
                evict(c, victim);
        }
}

void block_cache_done(BlockCache *c) {
        assert(c);

        for (size_t i = 0; i < BLOCK_CACHE_SLOTS; i++)
                if (c->slot[i].data)
                        evict(c, &c->slot[i]);
}
