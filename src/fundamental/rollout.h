/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Rollouts of network images: boot counting without an ESP.
 *
 * A server offers versions of an image as entries (newest first in the menu's order). Each entry is on
 * trial until the booted system blesses it ("good"); every start of an entry on trial costs one of its
 * tries before it runs, so a start that never comes back counts. The newest entry that is good or has
 * tries left is chosen; an entry whose tries are gone is skipped, and the machine falls back to an older
 * one by itself.
 *
 * What is known lives in one non-volatile EFI variable (boot manager and booted system both read it),
 * as text, one line per entry: "ID STATE TRIES-LEFT TRIES-DONE [FETCH-FAILURES]", STATE being "trial" or
 * "good". A start is counted only once its UKI was fetched and verified, right before it runs: a fetch that
 * failed (or bytes that were refused) never costs a try, it is counted apart, and a version on trial whose
 * UKI could not be fetched ROLLOUT_FETCH_FAILURES_MAX times in a row is skipped like one without tries.
 * Entries the server no longer offers are dropped when a newer entry list is taken, so it stays bounded.
 */
#pragma once

#include "macro-fundamental.h"

#define ROLLOUT_ENTRIES_MAX 32
#define ROLLOUT_ID_MAX 255
#define ROLLOUT_TRIES_DEFAULT 3
#define ROLLOUT_TRIES_MAX 100
/* Failed fetches in a row after which a version on trial is skipped (a UKI that is gone for good). */
#define ROLLOUT_FETCH_FAILURES_MAX 5
/* The variable's text can never be larger: every line at its longest. */
#define ROLLOUT_TEXT_MAX (ROLLOUT_ENTRIES_MAX * (ROLLOUT_ID_MAX + 20))

typedef enum RolloutState {
        ROLLOUT_TRIAL,          /* not blessed yet: counted at each start */
        ROLLOUT_GOOD,           /* blessed by the booted system: never counted again */
} RolloutState;

typedef struct RolloutRecord {
        char id[ROLLOUT_ID_MAX + 1];
        RolloutState state;
        unsigned tries_left, tries_done;
        unsigned fetch_failures;        /* fetches of its UKI that failed (or were refused) in a row */
} RolloutRecord;

typedef struct RolloutStore {
        RolloutRecord records[ROLLOUT_ENTRIES_MAX];
        size_t n;
} RolloutStore;

/** Whether an entry ID may be kept: 1 to ROLLOUT_ID_MAX printable ASCII bytes, no blank. */
bool rollout_id_valid(const char *id);

/**
 * Read the variable's text. Lines that are not "ID trial|good LEFT DONE [FETCH-FAILURES]" with a valid ID
 * (all of the word: no NUL inside) and numbers up to ROLLOUT_TRIES_MAX are skipped (the variable is writable by root in the booted system: nothing in it may
 * stop a boot); a second line for an ID, and lines past ROLLOUT_ENTRIES_MAX, too.
 */
void rollout_store_parse(const char *text, size_t size, RolloutStore *ret);

/**
 * The text of the store (what rollout_store_parse() reads back as the same store).
 * @ret the length written to buf (at least ROLLOUT_TEXT_MAX + 1 bytes), NUL-terminated
 */
size_t rollout_store_format(const RolloutStore *s, char *buf, size_t size);

RolloutRecord *rollout_store_find(RolloutStore *s, const char *id);

/** Keep only the records of these IDs (what the server offers now). */
void rollout_store_prune(RolloutStore *s, const char *const *ids, size_t n);

typedef enum RolloutReason {
        ROLLOUT_REASON_NEWEST,          /* the newest entry (good, or with tries left) */
        ROLLOUT_REASON_FALLBACK,        /* newer entries were skipped */
        ROLLOUT_REASON_NONE,            /* every entry was skipped */
} RolloutReason;

/* Why the newest skipped entry was skipped. */
typedef enum RolloutSkip {
        ROLLOUT_SKIP_TRIES,             /* on trial with no try left */
        ROLLOUT_SKIP_UNFETCHED,         /* its UKI could not be fetched ROLLOUT_FETCH_FAILURES_MAX times */
        ROLLOUT_SKIP_THIS_BOOT,         /* its UKI could not be fetched (or was refused) in this boot */
} RolloutSkip;

typedef struct RolloutChoice {
        int index;              /* into ids, -1 with ROLLOUT_REASON_NONE */
        RolloutReason reason;
        int newest_skipped;     /* the newest entry skipped, -1 if none */
        RolloutSkip skip;       /* why, when newest_skipped >= 0 */
        bool trial;             /* the chosen entry is on trial: this start counts */
} RolloutChoice;

/**
 * Choose among the offered entries.
 * @v ids   newest first (an ID the store does not know is new, with all its tries)
 * @v tried NULL, or per ID whether it was tried in this boot already and failed to fetch (skipped)
 */
void rollout_choose(const char *const *ids, size_t n, const RolloutStore *s, const bool *tried, RolloutChoice *ret);

/** "fallback: ID used up its tries" and the like: why the choice fell on an older entry (buf: 320 bytes). */
void rollout_choice_why(const RolloutChoice *c, const char *const *ids, char *buf, size_t size);

/**
 * Count a start of id, right before it runs (its UKI fetched and verified): a new entry is added on trial
 * with tries - 1 left, one on trial loses one; a good one is not counted. Its fetch failures start over.
 * @ret 0, -ENOSPC when the store is full, -EINVAL for an invalid ID, -ERANGE when no try is left
 */
int rollout_count_start(RolloutStore *s, const char *id, unsigned tries);

/**
 * The UKI of id could not be fetched, or its bytes were refused: not a try, a fetch failure (a new entry
 * is added on trial with all its tries).
 * @ret 0, -ENOSPC, -EINVAL
 */
int rollout_fetch_failed(RolloutStore *s, const char *id, unsigned tries);

/** The booted system reached its goal: id is good. @ret 0, -ENOENT when the store does not know it */
int rollout_bless(RolloutStore *s, const char *id);

/** Forget what is known of id: it is new again. @ret 0, -ENOENT */
int rollout_reset(RolloutStore *s, const char *id);

/* What the boot manager tells the booted system (a volatile variable): "ID\nSTATE\nWHY[\nPIN]", PIN being
 * the SHA-256 (64 lowercase hex digits) the entry pins its UKI to. */
typedef struct RolloutRunning {
        char id[ROLLOUT_ID_MAX + 1];
        RolloutState state;             /* when it was started */
        char why[ROLLOUT_ID_MAX + 64];  /* "newest version", "fallback: ID used up its tries", ... */
        char pin[65];                   /* the entry's pin, "" when it has none */
} RolloutRunning;

/**
 * Read it. @ret 0, -EINVAL when it is not three lines with a valid ID, a state and printable text, and
 * perhaps a fourth with a pin
 */
int rollout_running_parse(const char *text, size_t size, RolloutRunning *ret);

/** Write it (buf: at least ROLLOUT_RUNNING_MAX bytes). @ret its length */
#define ROLLOUT_RUNNING_MAX (ROLLOUT_ID_MAX + 1 + 6 + ROLLOUT_ID_MAX + 64 + 1 + 64 + 1)
size_t rollout_running_format(const RolloutRunning *r, char *buf, size_t size);

/** "trial", "good"; NULL for others. */
const char *rollout_state_to_string(RolloutState s);
