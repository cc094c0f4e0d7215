/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where urlbootctl writes EFI variables: the running firmware (efivarfs) or, with --vars-file=, an
 * OVMF variable store file in memory, written back atomically on close.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct Target {
        const char *vars_path;  /* NULL: efivarfs */
        const char *vendor;     /* GUID text */
        char *vars;
        size_t vars_size;
        uint8_t guid[16];
} Target;

int target_open(Target *t, const char *vars_path, const char *vendor);
int target_get(Target *t, const char *name, void **ret, size_t *ret_size);
/** Set a non-volatile variable (NV|BS|RT); size 0 removes it. */
int target_set(Target *t, const char *name, const void *data, size_t size);
/** The same with other attributes (MokList and TlsCaCertificate are NV|BS: only a VARS file can take them). */
int target_set_attributes(Target *t, const char *name, uint32_t attributes, const void *data, size_t size);
/** Write the VARS file back (if any) and free. */
int target_close(Target *t);
