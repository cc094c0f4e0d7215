/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The log of what urlboot measured after boot: records in systemd's userspace format
 * (/run/log/systemd/tpm2-measure.log, TCG's Canonical Event Log in JSON, RFC 7464 JSON text
 * sequences), kept apart in /run/log/urlboot/tpm2-measure.log. A record is
 * "\x1e{"pcr":N,"digests":[{"hashAlg":"sha256","digest":"HEX"},...],"content_type":"systemd",
 * "content":{"string":"TEXT"}}\n". Writers hold an exclusive flock on the file while they measure
 * and log, so the log's order is the TPM's.
 */
#pragma once

#include <stddef.h>

#include "tpm-pcr-event.h"

#define MEASURE_LOG_DEFAULT "/run/log/urlboot/tpm2-measure.log"

typedef struct MeasureLogRecord {
        unsigned pcr;
        char *text;                     /* content.string, NULL when the record has none */
        TpmEventResult digests;
} MeasureLogRecord;

typedef struct MeasureLog {
        MeasureLogRecord *records;
        size_t n;
} MeasureLog;

/**
 * Parses a log's text; an empty or missing file is an empty log. Records without "pcr" (systemd 258's
 * NvPCR records) are skipped.
 * @ret 0, -EBADMSG (a record that is not one: *ret_record has its index), -ENOMEM
 */
int measure_log_parse(const char *text, size_t size, MeasureLog *ret, size_t *ret_record);

/** Reads and parses the log at @path (missing: empty). @ret as measure_log_parse(), or errno */
int measure_log_read(const char *path, MeasureLog *ret, size_t *ret_record);

void measure_log_done(MeasureLog *log);

/** Opens the log for appending (its directory made if missing) and locks it. @ret the fd, or errno */
int measure_log_open_locked(const char *path);

/** One record, written with one write(2) to the locked fd. @ret 0, errno */
int measure_log_append(int fd, unsigned pcr, const char *text, const TpmEventResult *digests);

/** Whether the log has a record of @text in @pcr. */
int measure_log_has(const MeasureLog *log, unsigned pcr, const char *text);

/** The TPM_ALG_ID of "sha256" etc., 0 when unknown. */
unsigned tpm_alg_from_name(const char *name);

/** "sha1", "sha256", "sha384", "sha512", "sm3_256" for a TPM_ALG_ID, or NULL. */
const char *tpm_alg_name(uint16_t alg);

/** The digest size of a TPM_ALG_ID, 0 when unknown. */
size_t tpm_alg_digest_size(uint16_t alg);
