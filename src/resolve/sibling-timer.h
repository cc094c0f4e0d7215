/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The sibling rule of v258's parallel A/AAAA lookups, for an upstream filter in front of resolved 252.
 *
 * v258 asks for A and AAAA together; once one of them has a NOERROR answer (NODATA included, not
 * NXDOMAIN or SERVFAIL) while the other is still unanswered, it waits CANDIDATE_EXPEDITED_TIMEOUT
 * (6 s: one UDP attempt of 5 s plus 1 s) and then completes with what it has. A timer, once armed,
 * is never moved.
 *
 * The filter only sees resolved 252's upstream queries, one per type (and resent every 5 s with a
 * new ID). So this table tracks, per name and class, whether an A or AAAA query is outstanding and
 * when the other type last succeeded; when the rule says the outstanding one is over, the filter
 * answers it with NODATA. A success counts for a query that starts later too, for as long as 252
 * keeps the answer cached (its TTL): v258 would take that answer from its cache and start the
 * timer at once.
 *
 * Pure logic: the caller passes the time (µs on any monotonic clock), so tests drive it with a fake
 * clock.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/** TRANSACTION_UDP_TIMEOUT_USEC (120 s / 24 attempts) + 1 s. */
#define SIBLING_EXPEDITED_TIMEOUT_USEC (6ULL * 1000000ULL)

/** How long a success may stand in for a cached answer at most (resolved's CACHE_TTL_MAX_USEC, 2 h). */
#define SIBLING_SUCCESS_MAX_USEC (2ULL * 3600ULL * 1000000ULL)

/** No deadline. */
#define SIBLING_NEVER UINT64_MAX

typedef struct SiblingTable SiblingTable;

SiblingTable *sibling_table_new(void);
void sibling_table_free(SiblingTable *t);

/** True for the types the rule is about (A and AAAA). */
bool sibling_type_applies(uint16_t type);

/**
 * A query for key (name and class) and type went upstream. A resend while one is outstanding
 * changes nothing.
 *
 * @ret 0 or -ENOMEM
 */
int sibling_query_started(SiblingTable *t, const char *key, uint16_t type, uint64_t now);

/**
 * An upstream answer for key and type reached the client.
 *
 * @v rcode   its rcode (only NOERROR counts as success)
 * @v ttl     seconds the answer may be cached (the smallest TTL in it), or 0 when unknown
 * @ret 0 or -ENOMEM
 */
int sibling_answered(SiblingTable *t, const char *key, uint16_t type, int rcode, uint32_t ttl, uint64_t now);

/** The query for key and type is no longer outstanding for another reason (its client went away). */
void sibling_forget(SiblingTable *t, const char *key, uint16_t type);

/** The earliest moment sibling_expire() has something to do, or SIBLING_NEVER. */
uint64_t sibling_next_deadline(const SiblingTable *t);

/**
 * Ends every outstanding query whose sibling deadline has passed: fire() is called for each (the
 * filter answers it with NODATA), which then no longer counts as outstanding. Also drops entries
 * nobody needs any more.
 */
void sibling_expire(SiblingTable *t, uint64_t now, void (*fire)(const char *key, uint16_t type, void *userdata),
                    void *userdata);

/** Number of names tracked (for tests and status). */
unsigned sibling_table_size(const SiblingTable *t);
