/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where pull expressions come from, and which spellings are ours.
 *
 * urlboot always acts on "urlboot.pull=" (in the initrd "rd.urlboot.pull="), the
 * "urlboot.pull.success_action=" / "failure_action=" keys and the "urlboot.pull" credential.
 * Below systemd 258, which has no import generator of its own, it also takes systemd's spellings
 * ("systemd.pull=", "systemd.pull.*_action=", credential "import.pull"); from 258 on systemd owns those.
 * "urlboot.loop=PATH" (loop-image.h) is collected here too: systemd has no spelling of it.
 */
#pragma once

#include <stdbool.h>

typedef struct PullConfig {
        char **expressions;     /* in order: command line, then credentials */
        char **loops;           /* "urlboot.loop=PATH", in order (loop-image.h) */
        char *success_action;   /* last one wins, NULL if unset */
        char *failure_action;
        bool systemd_spelling;  /* whether systemd.pull= was ours to take */
        bool quiet;             /* set before loading: leave warnings to the import generator */
} PullConfig;

void pull_config_done(PullConfig *c);

/**
 * Collect expressions and actions from the command line and credentials.
 * @v systemd_version  the running systemd's version; <= 0 when unknown (treated as old)
 */
int pull_config_load(PullConfig *c, int systemd_version);

/** Whether the given key spelling ("systemd.pull" / "urlboot.pull") is ours at this version. */
bool pull_spelling_is_ours(const char *prefix, int systemd_version);
