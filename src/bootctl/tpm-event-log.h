/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The firmware's TPM event log (/sys/kernel/security/tpm0/binary_bios_measurements), in the
 * "crypto agile" format of the TCG PC Client Platform Firmware Profile: a first record in the old
 * SHA-1 layout whose data is the "Spec ID Event03" naming the hash algorithms and their digest
 * sizes, then one record per measurement: PCR, event type, a digest per algorithm, the event data.
 * Replaying the log (extending virtual PCRs with the logged digests) must give the PCRs' values;
 * EV_NO_ACTION records are not extended, and a "StartupLocality" one sets PCR 0's start value.
 *
 * The log is data from the firmware and the kernel: every length is checked against the buffer.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "pcr-state.h"

#define TCG_EV_NO_ACTION 0x00000003U
#define TCG_EV_SEPARATOR 0x00000004U
#define TCG_EV_EFI_VARIABLE_DRIVER_CONFIG 0x80000001U
#define TCG_EV_EFI_BOOT_SERVICES_APPLICATION 0x80000003U
#define TCG_EV_EFI_VARIABLE_AUTHORITY 0x800000e0U
#define TPM_LOG_ALGORITHMS_MAX 8

typedef struct TpmLogDigest {
        uint16_t alg;                   /* TCG algorithm id */
        const uint8_t *digest;
        size_t size;
} TpmLogDigest;

typedef struct TpmLogEvent {
        uint32_t pcr;
        uint32_t type;
        TpmLogDigest digests[TPM_LOG_ALGORITHMS_MAX];
        size_t n_digests;
        const uint8_t *data;
        size_t data_size;
} TpmLogEvent;

/** Called for each record after the header; non-zero stops and is returned. */
typedef int (*tpm_log_event_cb)(const TpmLogEvent *e, void *userdata);

/**
 * Walk the log.
 * @ret 0, -EBADMSG (not a crypto-agile log, or a record running past the end or using an algorithm
 *      the header did not list), or what cb returned
 */
int tpm_log_parse(const void *log, size_t size, tpm_log_event_cb cb, void *userdata);

/**
 * Replay the log into s (which it zeroes first), in every bank the log carries that we know.
 * @v ret_banks  bit (1 << PcrBank) for each bank the log carries
 * @ret 0, -EBADMSG, -EIO
 */
int tpm_log_replay(const void *log, size_t size, PcrSet *s, unsigned *ret_banks);

/**
 * A short text for a record: the UTF-16 description of EV_IPL records, the tag and description of
 * EV_EVENT_TAG ones (UTF-16, but ASCII for the Linux EFI stub's two tags), "NAME=VALUE" (value as a number) of EV_EFI_VARIABLE_DRIVER_CONFIG ones.
 * @ret new string (free()), or NULL when the record has no such text
 */
char *tpm_log_event_describe(const TpmLogEvent *e);
