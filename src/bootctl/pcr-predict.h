/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Predicting the PCRs of a boot through the stub: the events src/fundamental says the stub (and the
 * boot manager before it) measures, hashed with OpenSSL into virtual PCRs (pcr-state.h).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtbauto.h"
#include "pcr-state.h"

typedef struct PredictFile {
        const char *dir;        /* "\loader\credentials", "\loader\extensions", or NULL: beside the UKI */
        const char *name;       /* its file name */
        const void *data;
        size_t size;
} PredictFile;

typedef struct PredictInput {
        const void *uki;        /* NULL: no UKI (a Type #1 "linux" entry: only the boot manager measures) */
        size_t uki_size;
        const char *options;    /* the load options the stub is given (may start with "@N"), UTF-8 */
        int64_t profile;        /* >= 0: "@N" put before the options (N up to UINT32_MAX) */
        const char *smbios_extra;
        bool boot_manager;      /* a boot manager passed the options and measured them first */
        bool secure_boot;
        bool confidential_vm;   /* SEV/TDX: unsigned load options (with Secure Boot) and SMBIOS text unused */
        const PredictFile *files;
        size_t n_files;
        const char *phases;     /* systemd-pcrphase words (colon-separated) measured later into PCR 11 */
        char *const *sysexts;   /* urlboot-sysext-measure's texts, measured later into PCR 13 */
        const DtbautoMachine *machine;  /* what chooses the UKI's .dtbauto; NULL: none is chosen */
} PredictInput;

typedef struct PredictedEvent {
        uint32_t pcr;
        uint32_t type;
        uint32_t tag;
        char *description;
        uint8_t digest[_PCR_BANK_MAX][PCR_DIGEST_MAX];
} PredictedEvent;

typedef struct Prediction {
        PcrSet pcrs;
        PredictedEvent *events;
        size_t n_events;
} Prediction;

/**
 * @ret 0, -EINVAL (text not UTF-8), -ERANGE (the UKI has no such profile), -EBADMSG (not a PE image),
 *      -E2BIG, -ENOMEM, -EIO
 */
int pcr_predict(const PredictInput *in, Prediction *ret);

void prediction_done(Prediction *p);

/** Whether the stub would pick up a file of that name from that directory (NULL: beside the UKI). */
bool pcr_predict_file_wanted(const char *dir, const char *name);
