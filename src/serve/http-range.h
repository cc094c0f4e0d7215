/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The Range header of a GET, for one resource of a known size (RFC 9110, section 14).
 *
 * One range is served as 206 with Content-Range; several ranges are answered with the whole resource
 * (200), which the RFC allows and every client urlboot serves (curl, nbdkit, urlboot-pull, nginx's
 * proxy_cache) handles; a range that starts at or past the end is 416.
 */
#pragma once

#include <stdint.h>

typedef enum RangeAnswer {
        RANGE_WHOLE,            /* no Range, one in a unit other than bytes, several ranges, or malformed: 200 */
        RANGE_PART,             /* one satisfiable range: 206 */
        RANGE_UNSATISFIABLE,    /* 416, with "Content-Range: bytes * /SIZE" */
} RangeAnswer;

/**
 * Read value (the Range header, NULL when absent) against a resource of size bytes.
 * @ret what to answer; with RANGE_PART, the first and last byte (inclusive) in *first and *last
 */
RangeAnswer http_range_parse(const char *value, uint64_t size, uint64_t *first, uint64_t *last);
