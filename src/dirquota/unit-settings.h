/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What a service's unit file and drop-ins say about directory quotas: v258's keys (also spelt with "X-",
 * which systemd 252 ignores silently), the directories they apply to, and the command lists the
 * generator puts the quota helper in front of.
 *
 * Files are read in the order systemd applies them (the unit file, then drop-ins by name); each setting
 * follows systemd's rules: the last quota value wins, an empty one resets, an invalid one is ignored
 * with a warning; lists grow with each assignment and an empty assignment clears them.
 */
#pragma once

#include <stdbool.h>

#include "quota-apply.h"
#include "quota-value.h"

/** The command lists of a service that run with the unit's directories in place. */
typedef enum UnitExecList {
        UNIT_EXEC_START_PRE,
        UNIT_EXEC_START_POST,
        UNIT_EXEC_RELOAD,
        UNIT_EXEC_STOP,
        UNIT_EXEC_STOP_POST,
        _UNIT_EXEC_LIST_MAX,
} UnitExecList;

typedef struct UnitSettings {
        QuotaLimit limits[_QUOTA_DIR_TYPE_MAX];
        char **directories[_QUOTA_DIR_TYPE_MAX];        /* StateDirectory= … words, as written */
        char **exec[_UNIT_EXEC_LIST_MAX];               /* commands, as written (one assignment each) */
        char **warnings;                                /* "FILE:LINE: message" for the caller to log */
} UnitSettings;

/** "ExecStartPre", … */
const char *unit_exec_list_to_string(UnitExecList l);

/** Read one file into s (call in systemd's order). A missing file is an error, as for systemd. */
int unit_settings_add_file(UnitSettings *s, const char *path);

/** The same from text (the name is used in warnings). */
int unit_settings_add_text(UnitSettings *s, const char *name, const char *text, size_t size);

/** Whether any type has a quota or accounting switched on. */
bool unit_settings_want_quota(const UnitSettings *s);

void unit_settings_done(UnitSettings *s);

/** A fresh UnitSettings: all limits unset. */
#define UNIT_SETTINGS_INIT                                                                      \
        ((UnitSettings) { .limits = { QUOTA_LIMIT_UNSET, QUOTA_LIMIT_UNSET, QUOTA_LIMIT_UNSET } })
