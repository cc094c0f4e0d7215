/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The few HTTP response headers urlboot-pull reads, parsed from what a server sent (untrusted).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/** Retry-After beyond a day is nonsense; the retry policy caps what it honours much lower. */
#define HTTP_RETRY_AFTER_MAX (24 * 3600)

/**
 * The value of header name (case-insensitive) if line (n bytes, with or without its CRLF) is that
 * header, trimmed of blanks. A value with control characters is not taken (it would go back to the
 * server in If-Range).
 * @ret a new string, or NULL (another header, a malformed one, or out of memory)
 */
char *http_header_value(const char *line, size_t n, const char *name);

/**
 * Content-Range of a 206: "bytes FIRST-LAST/TOTAL", or "*" as TOTAL when unknown (RFC 9110 14.4).
 * @v ret_total  -1 for "*"
 * @ret 0, or -EBADMSG (also when LAST < FIRST or TOTAL <= LAST)
 */
int http_content_range_parse(const char *s, uint64_t *ret_first, uint64_t *ret_last, int64_t *ret_total);

/**
 * Whether a Connection header's value (a comma-separated list of options, RFC 9110 7.6.1) holds the
 * option "close", in any case: the server ends the connection after this response.
 */
bool http_connection_closes(const char *value);

/** Retry-After as seconds from now: delta-seconds or an HTTP date; 0 if absent, past or invalid. */
unsigned http_retry_after_parse(const char *value, time_t now);
