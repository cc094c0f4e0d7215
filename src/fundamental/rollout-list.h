/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A rollout's entry list and its freshness: which list a machine takes, and what it tells the booted system.
 *
 * An entry list is a signed PE image (urlbootctl build-manager --generation=) with two sections: .entries
 * (the versions, each pinned to its UKI's SHA-256) and .rollout, its own record in "KEY VALUE" lines:
 *
 *   generation N       a number the publisher raises with every list (1 to ROLLOUT_GENERATION_MAX)
 *   made SECONDS       when it was made, seconds since 1970 (UTC)
 *   max-age SECONDS    how old the list may grow before the booted system warns (0 or absent: no limit)
 *
 * The boot manager keeps the list of the highest generation it took (a non-volatile variable only code
 * before ExitBootServices() can write) and refuses a lower one: a server that replays an older signed list
 * cannot turn the machine back (TUF's rollback). A server that keeps serving the newest list for ever
 * (freeze) is seen by the booted system, whose clock is trusted: it compares "made" and "max-age" with now.
 * The .rollout section also tells an entry list from a boot manager image, which carries .entries too.
 */
#pragma once

#include "macro-fundamental.h"

#define ROLLOUT_GENERATION_MAX UINT64_C(9007199254740991)     /* 2^53 - 1: exact in JSON */
#define ROLLOUT_LIST_META_MAX 256                              /* the .rollout text's longest form */

typedef struct RolloutListMeta {
        uint64_t generation;    /* 1 to ROLLOUT_GENERATION_MAX */
        uint64_t made;          /* seconds since 1970 */
        uint64_t max_age;       /* seconds; 0: no limit */
} RolloutListMeta;

/**
 * Read a .rollout section. Unknown keys are skipped (a newer publisher may add some); a key given twice,
 * or a value that is not a number in range, makes it invalid.
 * @ret 0, -EBADMSG without generation or made, -EINVAL for a bad value
 */
int rollout_list_meta_parse(const char *text, size_t size, RolloutListMeta *ret);

/** Its text as rollout_list_meta_parse() reads it (buf: ROLLOUT_LIST_META_MAX bytes). @ret the length */
size_t rollout_list_meta_format(const RolloutListMeta *m, char *buf, size_t size);

/**
 * What the boot manager keeps of the list it took (variable UrlbootRolloutAccepted): the .rollout text, a
 * NUL, then the .entries bytes as they were.
 * @ret 0 with ret_entries pointing into data, -EBADMSG when it is not that
 */
int rollout_list_cache_parse(const uint8_t *data, size_t size, RolloutListMeta *ret_meta, const uint8_t **ret_entries,
                             size_t *ret_entries_size);

/** The kept form of a list (fmalloc()ed). @ret 0, -ENOMEM, -E2BIG when larger than max */
int rollout_list_cache_make(const RolloutListMeta *m, const uint8_t *entries, size_t entries_size, size_t max,
                            uint8_t **ret, size_t *ret_size);

typedef enum RolloutListSource {
        ROLLOUT_LIST_FETCHED,           /* fetched and taken in this boot */
        ROLLOUT_LIST_KEPT,              /* the kept list: the server's could not be fetched or verified */
        ROLLOUT_LIST_KEPT_REFUSED,      /* the kept list: the server offered an older generation, refused */
        _ROLLOUT_LIST_SOURCE_MAX,
} RolloutListSource;

/** Whether a fetched list may be taken: its generation is at least the one taken last (0: none yet). */
bool rollout_list_newer_or_same(uint64_t accepted_generation, const RolloutListMeta *fetched);

/* What the boot manager tells the booted system about the list in use (volatile UrlbootRolloutList). */
typedef struct RolloutListInfo {
        RolloutListMeta meta;           /* the list whose entries are offered */
        RolloutListSource source;
        uint64_t refused;               /* the generation refused in this boot, 0 if none */
} RolloutListInfo;

#define ROLLOUT_LIST_INFO_MAX (ROLLOUT_LIST_META_MAX + 64)

/** @ret 0, -EBADMSG, -EINVAL (as rollout_list_meta_parse(), plus "source" and "refused") */
int rollout_list_info_parse(const char *text, size_t size, RolloutListInfo *ret);
size_t rollout_list_info_format(const RolloutListInfo *i, char *buf, size_t size);

/** "fetched", "kept", "kept-refused-older"; NULL for others. */
const char *rollout_list_source_to_string(RolloutListSource s);

typedef enum RolloutListAge {
        ROLLOUT_LIST_FRESH,             /* within its max-age, or it has none */
        ROLLOUT_LIST_EXPIRED,           /* older than its max-age: the server may be frozen */
        ROLLOUT_LIST_FROM_FUTURE,       /* made after now: this clock or the publisher's is wrong */
} RolloutListAge;

/** How a list made at m->made stands at now (seconds since 1970); *ret_age: now - made, 0 from the future. */
RolloutListAge rollout_list_age(const RolloutListMeta *m, uint64_t now, uint64_t *ret_age);
