/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The stub's side of src/fundamental/stub-sidecar.h: credentials and extension images from the ESP
 * the UKI was loaded from, packed as cpio archives for the initrd and measured. A UKI fetched over
 * HTTP has no file system behind it and picks up nothing.
 */
#pragma once

#include <efi.h>

#include "efi-tpm.h"
#include "stub-sidecar.h"

#define STUB_EXTRAS_MAX 6

typedef struct StubExtras {
        void *archive[STUB_EXTRAS_MAX];         /* in stub_sidecar() order; NULL where nothing was found */
        size_t size[STUB_EXTRAS_MAX];
        TpmMeasured measured[STUB_SIDECAR_CONFEXTS + 1];        /* by StubSidecarKind */
} StubExtras;

/** Collect, pack and measure. */
void stub_extras_collect(EFI_LOADED_IMAGE *li, StubExtras *ret);

void stub_extras_done(StubExtras *x);
