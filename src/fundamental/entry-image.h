/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What an entry may start, judged on the bytes before LoadImage(): its pin (urlboot-sha256), and for uki and
 * uki-url entries that the bytes are a UKI at all.
 *
 * Under Secure Boot LoadImage() takes whatever the firmware's db, or through shim the MOK list, shim's vendor
 * certificate and its db, vouch for: a distribution's signed kernel or GRUB as well as our UKIs. A pin names
 * the one image an entry means; without one, a uki entry at least refuses what is not a UKI (no .linux).
 */
#pragma once

#include "bls.h"
#include "macro-fundamental.h"
#include "sha256.h"

typedef enum EntryImageVerdict {
        ENTRY_IMAGE_OK,                 /* pinned and equal, or unpinned and of the right kind */
        ENTRY_IMAGE_PIN_MISMATCH,       /* its SHA-256 is not the entry's pin */
        ENTRY_IMAGE_NOT_PE,             /* not a PE image */
        ENTRY_IMAGE_NOT_UKI,            /* a uki/uki-url entry's image has no .linux section */
} EntryImageVerdict;

/**
 * Judge the bytes an entry fetched or read; digest gets their SHA-256 in any case (also for the booted
 * system, which blesses a rollout version only when what ran is what its entry pins).
 */
EntryImageVerdict entry_image_check(const BlsEntry *e, const void *data, size_t size,
                                    uint8_t digest[static SHA256_DIGEST_SIZE]);
