/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The errno → action tables of directory quotas (test/data/quota-errno-cases.tsv lists them).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "macro.h"
#include "quota-errno.h"
#include "string-util.h"

bool quota_errno_is_not_supported(int err) {
        switch (abs(err)) {
        case EOPNOTSUPP:
        case ENOTTY:
        case ENOSYS:
        case EAFNOSUPPORT:
        case EPFNOSUPPORT:
        case EPROTONOSUPPORT:
        case ESOCKTNOSUPPORT:
        case ENOPROTOOPT:
                return true;
        default:
                return false;
        }
}

QuotaAction quota_errno_action_v258(QuotaStep step, int err) {
        err = abs(err);

        switch (step) {
        case QUOTA_STEP_GET_PROJECT:
                /* an ioctl the file system does not know may also give EINVAL */
                return quota_errno_is_not_supported(err) || err == EINVAL ? QUOTA_ACTION_UNSUPPORTED :
                                                                            QUOTA_ACTION_FAIL;
        case QUOTA_STEP_QUERY:
                /* ESRCH: project quota is off on this file system */
                return err == ESRCH || err == EPERM || err == EACCES || quota_errno_is_not_supported(err) ?
                               QUOTA_ACTION_UNSUPPORTED : QUOTA_ACTION_FAIL;
        case QUOTA_STEP_RELEASE_PROJECT:
                return QUOTA_ACTION_WARN;
        case QUOTA_STEP_SET_PROJECT:
        case QUOTA_STEP_SET_LIMITS:
        default:
                return QUOTA_ACTION_FAIL;
        }
}

QuotaAction quota_errno_action(QuotaStep step, int err) {
        if (step == QUOTA_STEP_QUERY && abs(err) == ENOENT)
                return QUOTA_ACTION_UNUSED;
        if (step == QUOTA_STEP_QUERY && abs(err) == ENODEV)
                return QUOTA_ACTION_UNSUPPORTED;
        return quota_errno_action_v258(step, err);
}

static const char *const step_names[_QUOTA_STEP_MAX] = {
        [QUOTA_STEP_GET_PROJECT] = "get-project",
        [QUOTA_STEP_QUERY] = "query",
        [QUOTA_STEP_SET_PROJECT] = "set-project",
        [QUOTA_STEP_SET_LIMITS] = "set-limits",
        [QUOTA_STEP_RELEASE_PROJECT] = "release-project",
};

static const char *const action_names[_QUOTA_ACTION_MAX] = {
        [QUOTA_ACTION_FAIL] = "fail",
        [QUOTA_ACTION_UNSUPPORTED] = "unsupported",
        [QUOTA_ACTION_UNUSED] = "unused",
        [QUOTA_ACTION_WARN] = "warn",
};

static int lookup(const char *const *names, int n, const char *s) {
        for (int i = 0; i < n; i++)
                if (streq(names[i], s))
                        return i;
        return -EINVAL;
}

const char *quota_step_to_string(QuotaStep s) {
        return s >= 0 && s < _QUOTA_STEP_MAX ? step_names[s] : NULL;
}

int quota_step_from_string(const char *s) {
        assert(s);

        return lookup(step_names, _QUOTA_STEP_MAX, s);
}

const char *quota_action_to_string(QuotaAction a) {
        return a >= 0 && a < _QUOTA_ACTION_MAX ? action_names[a] : NULL;
}

int quota_action_from_string(const char *s) {
        assert(s);

        return lookup(action_names, _QUOTA_ACTION_MAX, s);
}
