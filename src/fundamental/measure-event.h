/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * TPM measurements as systemd-stub and systemd-boot make them: into which PCR, with which event log
 * record, over which bytes. The stub hands each event to the firmware (EFI_TCG2_PROTOCOL
 * HashLogExtendEvent hashes the bytes for every active bank, extends the PCR and logs the record);
 * `urlbootctl measure` hashes the same bytes itself to predict the PCRs. Both get their events from
 * the functions of uki-measure.h, stub-cmdline.h and stub-sidecar.h, so the two cannot disagree.
 *
 * PCR numbers are the UAPI "Linux TPM PCR Registry"'s; record types and tags are what systemd logs
 * (docs/TPM2_PCR_MEASUREMENTS.md there): EV_IPL with the description in UTF-16 for what systemd has
 * always measured, EV_EVENT_TAG (tag, size, UTF-16 description) for newer measurements.
 */
#pragma once

#include "macro-fundamental.h"

#define TPM2_PCR_BOOT_LOADER_CONFIG 5  /* loader.conf */
#define TPM2_PCR_SECURE_BOOT_POLICY 7
#define TPM2_PCR_KERNEL_BOOT 11         /* the UKI's sections */
#define TPM2_PCR_KERNEL_CONFIG 12       /* command lines, credentials, configuration extensions, profile */
#define TPM2_PCR_SYSEXTS 13             /* system extension images */

#define TCG_EV_EVENT_TAG 0x00000006U
#define TCG_EV_IPL 0x0000000dU

/* EV_EVENT_TAG tags systemd uses */
#define TCG_TAG_LOADER_CONF 0xf5bc582aU
#define TCG_TAG_UKI_PROFILE 0x13aed6dbU

/* EFI_TCG2_EVENT: a 4-byte size, then the 14-byte header (header size, version, PCR, event type). */
#define TCG2_EVENT_HEADER_SIZE 14
#define TCG2_EVENT_PREFIX_SIZE (4 + TCG2_EVENT_HEADER_SIZE)

typedef struct MeasureEvent {
        uint32_t pcr;
        uint32_t type;                  /* TCG_EV_IPL or TCG_EV_EVENT_TAG */
        uint32_t tag;                   /* TCG_EV_EVENT_TAG only */
        const void *data;               /* the bytes hashed: data, then `zeros` zero bytes */
        size_t size;
        size_t zeros;                   /* a section longer in memory than in the file (see uki-measure.h) */
        const char *description;        /* UTF-8, logged as UTF-16 with its NUL; or NULL and: */
        const void *description_utf16;  /* UTF-16LE with its NUL, logged as it is */
        size_t description_utf16_size;
} MeasureEvent;

/** Called for each event, in the order they are made; non-zero stops and is returned. */
typedef int (*measure_event_cb)(const MeasureEvent *e, void *userdata);

/**
 * The event data of the log record: EV_IPL the UTF-16 description, EV_EVENT_TAG the tag, its size and
 * the UTF-16 description.
 * @v ret  new buffer (ffree())
 * @ret 0, -EILSEQ (description not UTF-8), -ENOMEM
 */
int measure_event_log_data(const MeasureEvent *e, void **ret, size_t *ret_size);

/**
 * The whole EFI_TCG2_EVENT structure HashLogExtendEvent takes: size, header (version 1, PCR, type)
 * and the event data above.
 * @ret 0, -EILSEQ, -ENOMEM, -E2BIG (more than 4 GiB)
 */
int measure_event_tcg2(const MeasureEvent *e, void **ret, size_t *ret_size);
