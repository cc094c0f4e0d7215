/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Values of StateDirectoryQuota=, CacheDirectoryQuota= and LogsDirectoryQuota=, read as systemd v258 reads them.
 *
 * A value is empty or "off" (no limit), a share of the file system ("10%", "0.5%", "0.25%", "5‰", "2.5‰",
 * "3‱"; at most 100 %), or a size in bytes with an optional base-1024 suffix B K M G T P E ("1M", "1.5G",
 * "1G 512M"). Percentages are kept as a fraction of UINT32_MAX, as v258 keeps them.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/** One directory type's quota settings (v258's QuotaLimit). */
typedef struct QuotaLimit {
        uint64_t absolute;      /* bytes, or UINT64_MAX when a share is set */
        uint32_t scale;         /* share of the file system, 0…UINT32_MAX, or UINT32_MAX when absolute */
        bool enforce;           /* a …Quota= value is set */
        bool accounting;        /* …Accounting=yes */
} QuotaLimit;

#define QUOTA_LIMIT_UNSET ((QuotaLimit) { .absolute = UINT64_MAX, .scale = UINT32_MAX })

/**
 * A size with base-1024 suffixes, as systemd's parse_size(s, 1024) reads it: terms such as "1G 512M" add up
 * (each with a smaller suffix than the one before), a term may have a fraction ("1.5G").
 * @ret 0, -EINVAL for a malformed size, -ERANGE for a negative or too large one
 */
int quota_parse_size(const char *s, uint64_t *ret);

/**
 * A share in hundredths of a percent: "N%", "N.N%", "N.NN%", "N‰", "N.N‰", "N‱".
 * @ret 0…10000, -EINVAL for a malformed share, -ERANGE for one above 100 % or negative
 */
int quota_parse_permyriad(const char *s);

/** A share in hundredths of a percent (0…10000) as a fraction of UINT32_MAX, rounded to the nearest. */
uint32_t quota_scale_from_permyriad(int permyriad);

/**
 * Apply one "…Quota=" assignment to q. On a malformed value q is left as it was (the caller warns, as
 * systemd does: "Failed to parse disk quota value, ignoring: VALUE").
 * @ret 0, or -EINVAL/-ERANGE
 */
int quota_limit_parse(const char *value, QuotaLimit *q);

