/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Time spans as administrators write them and read them: "7d", "12h", "90min", "1w 2d", "3600" (seconds),
 * with systemd's unit words (s, sec, m, min, h, hour, d, day, w, week; the plural too), whole seconds only.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/** @ret 0, -EINVAL (empty, malformed, an unknown unit), -ERANGE (past UINT64_MAX seconds) */
int time_span_parse(const char *s, uint64_t *ret_sec);

/** "2d 3h", "5min 10s", "0s": at most the two largest units (buf: TIME_SPAN_MAX bytes). @ret buf */
#define TIME_SPAN_MAX 48
char *time_span_format(uint64_t sec, char *buf, size_t size);
