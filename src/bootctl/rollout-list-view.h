/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The rollout's entry list as the booted system sees it (the boot manager's UrlbootRolloutList): which
 * generation, where it came from, and how old it is by this system's clock, which is trusted where the
 * firmware's is not. A list older than its max-age means the server kept serving it (frozen, or the
 * publisher stopped): urlbootctl status and rollout warn.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "rollout-list.h"

/** @ret 0, -ENOENT (no rollout list in this boot), -EBADMSG (not what the boot manager writes) */
int rollout_list_view_load(RolloutListInfo *ret);

/** "generation 44 (fetched), made 2026-12-05 10:00 UTC, 2d 3h ago (max-age 7d)" into buf. @ret its age verdict */
RolloutListAge rollout_list_view_describe(const RolloutListInfo *i, uint64_t now, char *buf, size_t size);

/** The warning line for a list that is not fresh, or NULL. */
const char *rollout_list_view_warning(RolloutListAge age);
