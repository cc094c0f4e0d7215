/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The sibling rule of v258's parallel A/AAAA lookups.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "sibling-timer.h"
#include "string-util.h"

#define TYPE_A 1
#define TYPE_AAAA 28

/* Names remembered at most; beyond that the oldest finished entries go first. */
#define SIBLING_TABLE_MAX 4096U

typedef struct Side {
        bool outstanding;
        uint64_t deadline;      /* when the outstanding query gets NODATA, or SIBLING_NEVER */
        bool succeeded;
        uint64_t success_at;
        uint64_t success_until; /* how long the success stands for a cached answer */
} Side;

typedef struct Entry {
        char *key;
        Side side[2];           /* [0] A, [1] AAAA */
        uint64_t touched;
} Entry;

struct SiblingTable {
        Entry *entries;
        unsigned n, allocated;
};

bool sibling_type_applies(uint16_t type) {
        return type == TYPE_A || type == TYPE_AAAA;
}

static unsigned side_of(uint16_t type) {
        return type == TYPE_AAAA;
}

SiblingTable *sibling_table_new(void) {
        return calloc(1, sizeof(SiblingTable));
}

void sibling_table_free(SiblingTable *t) {
        if (!t)
                return;
        for (unsigned i = 0; i < t->n; i++)
                free(t->entries[i].key);
        free(t->entries);
        free(t);
}

unsigned sibling_table_size(const SiblingTable *t) {
        assert(t);

        return t->n;
}

static Entry *find(SiblingTable *t, const char *key) {
        for (unsigned i = 0; i < t->n; i++)
                if (streq(t->entries[i].key, key))
                        return &t->entries[i];
        return NULL;
}

static void drop(SiblingTable *t, unsigned i) {
        free(t->entries[i].key);
        t->entries[i] = t->entries[--t->n];
}

static bool entry_needed(const Entry *e, uint64_t now) {
        for (unsigned s = 0; s < 2; s++)
                if (e->side[s].outstanding || (e->side[s].succeeded && now < e->side[s].success_until))
                        return true;
        return false;
}

/* Makes room by dropping the least recently touched entry without an outstanding query. */
static void evict_one(SiblingTable *t) {
        unsigned victim = UINT32_MAX;

        for (unsigned i = 0; i < t->n; i++) {
                const Entry *e = &t->entries[i];

                if (e->side[0].outstanding || e->side[1].outstanding)
                        continue;
                if (victim == UINT32_MAX || e->touched < t->entries[victim].touched)
                        victim = i;
        }
        if (victim != UINT32_MAX)
                drop(t, victim);
}

static Entry *get(SiblingTable *t, const char *key, uint64_t now) {
        Entry *e = find(t, key);

        if (e)
                return e;
        if (t->n >= SIBLING_TABLE_MAX)
                evict_one(t);
        if (t->n >= t->allocated) {
                unsigned a = t->allocated ? t->allocated * 2 : 16;
                Entry *n = realloc(t->entries, a * sizeof(Entry));

                if (!n)
                        return NULL;
                t->entries = n;
                t->allocated = a;
        }
        e = &t->entries[t->n];
        *e = (Entry) {
                .key = strdup(key),
                .side = { { .deadline = SIBLING_NEVER }, { .deadline = SIBLING_NEVER } },
                .touched = now,
        };
        if (!e->key)
                return NULL;
        t->n++;
        return e;
}

int sibling_query_started(SiblingTable *t, const char *key, uint16_t type, uint64_t now) {
        Entry *e;
        Side *self, *other;

        assert(t);
        assert(key);

        if (!sibling_type_applies(type))
                return 0;
        e = get(t, key, now);
        if (!e)
                return -ENOMEM;
        e->touched = now;
        self = &e->side[side_of(type)];
        other = &e->side[!side_of(type)];
        if (self->outstanding)
                return 0; /* a resend of the same lookup */

        self->outstanding = true;
        self->deadline = SIBLING_NEVER;
        if (other->succeeded && now < other->success_until)
                /* Within the window the timer runs from the success; later, the sibling would have come
                 * from the cache the moment this query started. */
                self->deadline = now < other->success_at + SIBLING_EXPEDITED_TIMEOUT_USEC ?
                                 other->success_at + SIBLING_EXPEDITED_TIMEOUT_USEC :
                                 now + SIBLING_EXPEDITED_TIMEOUT_USEC;
        return 0;
}

int sibling_answered(SiblingTable *t, const char *key, uint16_t type, int rcode, uint32_t ttl, uint64_t now) {
        uint64_t keep;
        Entry *e;
        Side *self, *other;

        assert(t);
        assert(key);

        if (!sibling_type_applies(type))
                return 0;
        e = get(t, key, now);
        if (!e)
                return -ENOMEM;
        e->touched = now;
        self = &e->side[side_of(type)];
        other = &e->side[!side_of(type)];

        self->outstanding = false;
        self->deadline = SIBLING_NEVER;
        if (rcode != 0)
                return 0;

        keep = MIN((uint64_t) ttl * 1000000ULL, SIBLING_SUCCESS_MAX_USEC);
        self->succeeded = true;
        self->success_at = now;
        self->success_until = now + MAX(keep, SIBLING_EXPEDITED_TIMEOUT_USEC);
        if (other->outstanding && other->deadline == SIBLING_NEVER)
                other->deadline = now + SIBLING_EXPEDITED_TIMEOUT_USEC;
        return 0;
}

void sibling_forget(SiblingTable *t, const char *key, uint16_t type) {
        Entry *e;

        assert(t);
        assert(key);

        if (!sibling_type_applies(type))
                return;
        e = find(t, key);
        if (!e)
                return;
        e->side[side_of(type)].outstanding = false;
        e->side[side_of(type)].deadline = SIBLING_NEVER;
}

uint64_t sibling_next_deadline(const SiblingTable *t) {
        uint64_t next = SIBLING_NEVER;

        assert(t);

        for (unsigned i = 0; i < t->n; i++)
                for (unsigned s = 0; s < 2; s++)
                        if (t->entries[i].side[s].outstanding)
                                next = MIN(next, t->entries[i].side[s].deadline);
        return next;
}

void sibling_expire(SiblingTable *t, uint64_t now, void (*fire)(const char *key, uint16_t type, void *userdata),
                    void *userdata) {
        assert(t);

        for (unsigned i = 0; i < t->n;) {
                Entry *e = &t->entries[i];

                for (unsigned s = 0; s < 2; s++) {
                        Side *side = &e->side[s];

                        if (!side->outstanding || side->deadline > now)
                                continue;
                        side->outstanding = false;
                        side->deadline = SIBLING_NEVER;
                        if (fire)
                                fire(e->key, s ? TYPE_AAAA : TYPE_A, userdata);
                }
                if (entry_needed(e, now))
                        i++;
                else
                        drop(t, i);
        }
}
