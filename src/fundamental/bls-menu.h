/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Menu rules over a sorted list of entries: which one is the default, and unique titles.
 */
#pragma once

#include "bls.h"

typedef struct BlsDefaultRequest {
        const char *oneshot;            /* LoaderEntryOneShot, or NULL */
        const char *variable;           /* LoaderEntryDefault (a glob or "@saved"), or NULL */
        const char *conf;               /* loader.conf "default" (a glob or "@saved"), or NULL */
        const char *saved;              /* LoaderEntryLastBooted, or NULL */
} BlsDefaultRequest;

/**
 * The index of the default entry: the one-shot pattern, then LoaderEntryDefault, then loader.conf
 * (either may say "@saved": the last booted entry), each the first entry whose ID matches the glob
 * (case-insensitively); otherwise 0.
 */
unsigned bls_pick_default(BlsEntry *const *entries, unsigned n, const BlsDefaultRequest *req);

/**
 * Menu titles: title (or ID); where two are the same, " (version)" is added, then " (first 8 of the
 * machine-id)", then " (ID)". ret[i] is newly allocated for every entry. @ret 0 or -ENOMEM
 */
int bls_titles_make(BlsEntry *const *entries, unsigned n, char **ret);
