/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Measuring into the TPM through the firmware's EFI_TCG2_PROTOCOL (TCG EFI Protocol Specification):
 * HashLogExtendEvent hashes the data for every active PCR bank, extends the PCR and appends the
 * record to the event log the OS reads later. Without a TPM nothing is measured and nothing fails.
 * What to measure comes from src/fundamental (measure-event.h); this is the protocol call.
 */
#pragma once

#include <efi.h>

#include "measure-event.h"

/** Whether a TPM 2.0 is there and active. */
bool tpm_present(void);

/**
 * The active PCR banks as the protocol reports them (EFI_TCG2_BOOT_HASH_ALG_* bits; SHA-256 is 2),
 * 0 without a TPM: what LoaderTpm2ActivePcrBanks says, as "0x%08x".
 */
uint32_t tpm_active_pcr_banks(void);

/**
 * Measure one event.
 * @v ret_measured  set to whether it was measured (false without a TPM)
 * @ret EFI_SUCCESS also without a TPM; an error when the firmware refused the measurement
 */
EFI_STATUS tpm_measure(const MeasureEvent *e, bool *ret_measured);

/**
 * What a series of measurements came to, in systemd-stub's terms: nothing submitted yet, all of them
 * measured, or at least one not (no TPM, or refused).
 */
typedef enum TpmMeasured {
        TPM_MEASURED_NOTHING,
        TPM_MEASURED_ALL,
        TPM_MEASURED_NOT_ALL,
} TpmMeasured;

/** A measure_event_cb: measures the event and folds the result into the TpmMeasured at userdata. */
int tpm_measure_cb(const MeasureEvent *e, void *userdata);
