/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What an error at each step of applying directory quotas means: skip quietly (the file system has no
 * project quotas), count the project as unused, or fail the unit.
 *
 * Two tables: v258's own, and urlboot's, which differs on purpose in two places (docs/companions.md):
 * - ENOENT from Q_GETQUOTA means "no record for this ID yet" (XFS answers so for a never-used ID; v258 fails
 *   the unit on the first start there);
 * - ENODEV from Q_GETQUOTA means "no quota support" (tmpfs and btrfs have no block device behind the
 *   fallback quotactl(); v258 fails the unit, we warn and go on).
 */
#pragma once

#include <stdbool.h>

typedef enum QuotaStep {
        QUOTA_STEP_GET_PROJECT,         /* FS_IOC_FSGETXATTR on the directory */
        QUOTA_STEP_QUERY,               /* quotactl(Q_GETQUOTA, PRJQUOTA) */
        QUOTA_STEP_SET_PROJECT,         /* FS_IOC_FSSETXATTR, also recursively */
        QUOTA_STEP_SET_LIMITS,          /* quotactl(Q_SETQUOTA, PRJQUOTA) */
        QUOTA_STEP_RELEASE_PROJECT,     /* resetting the ID to 0 when the settings are gone */
        _QUOTA_STEP_MAX,
} QuotaStep;

typedef enum QuotaAction {
        QUOTA_ACTION_FAIL,              /* the unit fails (exit status 238/239/240) */
        QUOTA_ACTION_UNSUPPORTED,       /* no project quotas here: leave the directory alone */
        QUOTA_ACTION_UNUSED,            /* Q_GETQUOTA: no record, as for an ID nobody uses */
        QUOTA_ACTION_WARN,              /* log a warning and go on */
        _QUOTA_ACTION_MAX,
} QuotaAction;

/** What systemd v258 does with error err (positive or negative errno) at step. */
QuotaAction quota_errno_action_v258(QuotaStep step, int err);

/** What urlboot does: v258's table with the two deviations above. */
QuotaAction quota_errno_action(QuotaStep step, int err);

/** The errors systemd calls "not supported" (ERRNO_IS_NOT_SUPPORTED), which also start the quotactl() fallback. */
bool quota_errno_is_not_supported(int err);

const char *quota_step_to_string(QuotaStep s);
int quota_step_from_string(const char *s);
const char *quota_action_to_string(QuotaAction a);
int quota_action_from_string(const char *s);
