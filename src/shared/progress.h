/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Showing how far long work is (a download, a compression): a status line on a terminal, STATUS= and an
 * occasional log line under systemd, nothing otherwise.
 */
#pragma once

#include <stdint.h>

typedef enum ProgressMode {
        PROGRESS_AUTO,
        PROGRESS_BAR,           /* one line, rewritten in place (a terminal) */
        PROGRESS_PLAIN,         /* a log line every few seconds (and sd_notify STATUS= under systemd) */
        PROGRESS_NONE,
        _PROGRESS_MODE_MAX,
        _PROGRESS_MODE_INVALID = -22,
} ProgressMode;

ProgressMode progress_mode_from_string(const char *s);

typedef struct Progress Progress;

/** verb: what is done, as the status and log lines start ("Downloading": a string that outlives the
 * Progress); name: to what. */
Progress *progress_new(ProgressMode mode, const char *verb, const char *name);
void progress_free(Progress *p);

/** received bytes of total (-1: unknown). Prints only when it is time to. */
void progress_update(Progress *p, uint64_t received, int64_t total);

/** Clear the terminal line (before other output, and at the end). */
void progress_clear(Progress *p);

/** Format a byte count as "12.3 MiB" into buf. */
char *format_bytes(char *buf, size_t size, uint64_t bytes);
