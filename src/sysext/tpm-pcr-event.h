/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Measuring a text into a PCR with TPM2_PCR_Event: the TPM hashes the text with each of its banks'
 * algorithms and extends the PCR in each, so no bank is left behind. libtss2-esys and its TCTI
 * loader are loaded at first use (as systemd does): a machine without them has no TPM to talk to.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define TPM_EVENT_DATA_MAX 1024         /* sizeof TPM2B_EVENT's buffer */
#define TPM_EVENT_BANKS_MAX 16

typedef struct TpmBankDigest {
        uint16_t alg;                   /* TPM2_ALG_SHA1, _SHA256, ... */
        uint8_t digest[64];
        size_t size;
} TpmBankDigest;

typedef struct TpmEventResult {
        TpmBankDigest banks[TPM_EVENT_BANKS_MAX];
        size_t n_banks;
} TpmEventResult;

/** The device a TPM is reached through ("/dev/tpmrm0"), NULL when the machine has none. */
const char *tpm_device(void);

/**
 * Extends @pcr with @data in every bank and says with which digests.
 * @v device  as tpm_device() returns, or a TCTI "DRIVER:CONF"
 * @ret 0, -EOPNOTSUPP (libtss2 missing: *ret_error says which), -E2BIG (data too long), -EIO (the TPM
 *      refused: *ret_error has its response code's text)
 */
int tpm_pcr_event(const char *device, unsigned pcr, const void *data, size_t size, TpmEventResult *ret,
                  const char **ret_error);
