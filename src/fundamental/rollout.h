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
 * as text, one line per entry: "ID STATE TRIES-LEFT TRIES-DONE", STATE being "trial" or "good". Entries
 * the server no longer offers are dropped when it is written, so it stays bounded.
 */
#pragma once

#include "macro-fundamental.h"

#define ROLLOUT_ENTRIES_MAX 32
#define ROLLOUT_ID_MAX 255
#define ROLLOUT_TRIES_DEFAULT 3
#define ROLLOUT_TRIES_MAX 100
/* The variable's text can never be larger: every line at its longest. */
#define ROLLOUT_TEXT_MAX (ROLLOUT_ENTRIES_MAX * (ROLLOUT_ID_MAX + 16))

typedef enum RolloutState {
        ROLLOUT_TRIAL,          /* not blessed yet: counted at each start */
        ROLLOUT_GOOD,           /* blessed by the booted system: never counted again */
} RolloutState;

typedef struct RolloutRecord {
        char id[ROLLOUT_ID_MAX + 1];
        RolloutState state;
        unsigned tries_left, tries_done;
} RolloutRecord;

typedef struct RolloutStore {
        RolloutRecord records[ROLLOUT_ENTRIES_MAX];
        size_t n;
} RolloutStore;

/** Whether an entry ID may be kept: 1 to ROLLOUT_ID_MAX printable ASCII bytes, no blank. */
bool rollout_id_valid(const char *id);

/**
 * Read the variable's text. Lines that are not "ID trial|good LEFT DONE" with a valid ID and numbers up to
 * ROLLOUT_TRIES_MAX are skipped (the variable is writable by root in the booted system: nothing in it may
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
        ROLLOUT_REASON_FALLBACK,        /* newer entries used up their tries */
        ROLLOUT_REASON_NONE,            /* every entry used up its tries */
} RolloutReason;

typedef struct RolloutChoice {
        int index;              /* into ids, -1 with ROLLOUT_REASON_NONE */
        RolloutReason reason;
        int newest_exhausted;   /* the newest entry skipped for lack of tries, -1 if none */
        bool trial;             /* the chosen entry is on trial: this start counts */
} RolloutChoice;

/**
 * Choose among the offered entries.
 * @v ids  newest first (an ID the store does not know is new, with all its tries)
 */
void rollout_choose(const char *const *ids, size_t n, const RolloutStore *s, RolloutChoice *ret);

/**
 * Count a start of id, before it runs: a new entry is added on trial with tries - 1 left, one on trial
 * loses one; a good one is not counted.
 * @ret 0, -ENOSPC when the store is full, -EINVAL for an invalid ID, -ERANGE when no try is left
 */
int rollout_count_start(RolloutStore *s, const char *id, unsigned tries);

/** The booted system reached its goal: id is good. @ret 0, -ENOENT when the store does not know it */
int rollout_bless(RolloutStore *s, const char *id);

/** Forget what is known of id: it is new again. @ret 0, -ENOENT */
int rollout_reset(RolloutStore *s, const char *id);

/* What the boot manager tells the booted system (a volatile variable): "ID\nSTATE\nWHY". */
typedef struct RolloutRunning {
        char id[ROLLOUT_ID_MAX + 1];
        RolloutState state;             /* when it was started */
        char why[ROLLOUT_ID_MAX + 64];  /* "newest version", "fallback: ID used up its tries", ... */
} RolloutRunning;

/** Read it. @ret 0, -EINVAL when it is not three lines with a valid ID, a state and printable text */
int rollout_running_parse(const char *text, size_t size, RolloutRunning *ret);

/** "trial", "good"; NULL for others. */
const char *rollout_state_to_string(RolloutState s);
