/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Virtual PCRs: what a TPM bank would hold after a series of extends, computed with OpenSSL. A PCR
 * starts as zeros; extending it with an event sets it to HASH(old value || HASH(event data)).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure-event.h"

#define PCR_COUNT 24
#define PCR_DIGEST_MAX 64

typedef enum PcrBank {
        PCR_BANK_SHA1,
        PCR_BANK_SHA256,
        PCR_BANK_SHA384,
        PCR_BANK_SHA512,
        _PCR_BANK_MAX,
} PcrBank;

typedef struct PcrSet {
        uint8_t value[PCR_COUNT][_PCR_BANK_MAX][PCR_DIGEST_MAX];
        bool touched[PCR_COUNT];        /* extended at least once */
} PcrSet;

/** "sha1", "sha256", ... */
const char *pcr_bank_name(PcrBank b);
/** The bank of a name (case ignored), or -EINVAL. */
int pcr_bank_from_name(const char *name);
size_t pcr_bank_digest_size(PcrBank b);
/** The bank of a TCG algorithm id (TPM_ALG_SHA256 is 0x000b), or -EOPNOTSUPP. */
int pcr_bank_from_tcg_alg(uint16_t alg);

/** The digest of an event's data (its bytes, then its zeros) in bank b. @ret 0 or -EIO */
int pcr_event_digest(const MeasureEvent *e, PcrBank b, uint8_t *ret);

/** PCR = HASH(PCR || digest) in bank b. @ret 0 or -EIO */
int pcr_extend_digest(PcrSet *s, unsigned pcr, PcrBank b, const uint8_t *digest);

/** Extend the event's PCR with it in every bank. @ret 0 or -EIO */
int pcr_extend_event(PcrSet *s, const MeasureEvent *e);

/** Lowercase hex of a PCR value (buffer of at least 2 * PCR_DIGEST_MAX + 1). */
const char *pcr_hex(const PcrSet *s, unsigned pcr, PcrBank b, char *buf);
