/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The UEFI side of src/fundamental's allocation contract: the boot services pool.
 */
#include <efi.h>
#include <efilib.h>

#include "memory-fundamental.h"

/* src/fundamental allocates through these. */
void *fmalloc(size_t size) {
        void *p = NULL;

        if (BS->AllocatePool(EfiLoaderData, size ? size : 1, &p) != EFI_SUCCESS)
                return NULL;
        return p;
}

void ffree(void *p) {
        if (p)
                BS->FreePool(p);
}
