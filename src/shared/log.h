/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Logging to stderr.
 *
 * When stderr is connected to the journal (systemd sets $JOURNAL_STREAM for services and generators
 * log to /dev/kmsg-like streams), each line carries a "<N>" syslog priority prefix so the journal
 * records the right level. Otherwise lines are "program: message".
 * The threshold comes from $URLBOOT_LOG_LEVEL, then $SYSTEMD_LOG_LEVEL, default "info".
 * Control characters in a message (from a name in an archive, a server's error text...) are
 * written as \xNN, so one call is always exactly one line and never a terminal escape sequence.
 */
#pragma once

#include <stdarg.h>
#include <syslog.h>

#include "macro.h"

/** Set the program name used as prefix; default is program_invocation_short_name. */
void log_set_program(const char *name);
/** Set the maximum level printed (LOG_ERR .. LOG_DEBUG). */
void log_set_max_level(int level);
int log_get_max_level(void);
/** Parse "err", "warning", "info", "debug", ... or a number 0–7; negative errno if invalid. */
int log_level_from_string(const char *s);
/** Force or forbid the "<N>" prefix (tests); -1 returns to auto-detection. */
void log_set_prefix_mode(int mode);

/**
 * Log one line.
 *
 * @v level   syslog level
 * @v error   errno value (either sign) for %m, or 0
 * @ret       -abs(error), so callers can "return log_error_errno(r, ...)"
 */
int log_internal(int level, int error, const char *format, ...) _printf_(3, 4);

#define log_debug(...) log_internal(LOG_DEBUG, 0, __VA_ARGS__)
#define log_info(...) log_internal(LOG_INFO, 0, __VA_ARGS__)
#define log_notice(...) log_internal(LOG_NOTICE, 0, __VA_ARGS__)
#define log_warning(...) log_internal(LOG_WARNING, 0, __VA_ARGS__)
#define log_error(...) log_internal(LOG_ERR, 0, __VA_ARGS__)

#define log_debug_errno(e, ...) log_internal(LOG_DEBUG, (e), __VA_ARGS__)
#define log_info_errno(e, ...) log_internal(LOG_INFO, (e), __VA_ARGS__)
#define log_warning_errno(e, ...) log_internal(LOG_WARNING, (e), __VA_ARGS__)
#define log_error_errno(e, ...) log_internal(LOG_ERR, (e), __VA_ARGS__)

/** The usual "out of memory" failure. */
#define log_oom() log_internal(LOG_ERR, ENOMEM, "Out of memory.")
