/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One image download: fetch (with retries, resume and mirrors), hash, decompress, write, verify,
 * place atomically.
 *
 * Data flows network → SHA-256 → ring buffer → decompressor → sparse file (raw) or libarchive
 * (tar), the network side on the calling thread and the unpacking side on a second one, so
 * download, decompression and disk writes overlap. The image is built under a hidden temporary
 * name beside its final one and renamed into place only once verified; every failure, and SIGINT
 * or SIGTERM, removes the temporary.
 */
#pragma once

#include <stddef.h>

#include "pull-options.h"

/** Frees what the report holds (url, path). */
void pull_report_done(PullReport *r);

/**
 * Run the job.
 * @v error  one line saying what failed and what to do, on failure
 * @ret 0 or negative errno
 */
int pull_run(const PullOptions *o, PullReport *report, char *error, size_t error_size);
