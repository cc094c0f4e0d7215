/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Appending sections to a PE32+ image: how a UKI is made from a stub.
 *
 * New sections go after the stub's last one: virtual addresses aligned to SectionAlignment, file
 * offsets to FileAlignment; NumberOfSections, SizeOfImage, SizeOfInitializedData and the checksum are
 * updated. The stub must be unsigned (a UKI is signed as a whole, afterwards).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct PeNewSection {
        const char *name;       /* at most 8 bytes, e.g. ".linux" */
        const void *data;
        size_t size;
} PeNewSection;

/**
 * @v error  reason on failure
 * @ret 0, -EBADMSG (not a PE32+ image), -ENOSPC (no room for more section headers), -EPERM (signed stub)
 */
int pe_append_sections(const void *image, size_t size, const PeNewSection *sections, size_t n, void **ret,
                       size_t *ret_size, char *error, size_t error_size);

/** The PE checksum over a whole file (the CheckSum field itself counted as zero). */
uint32_t pe_checksum(const void *image, size_t size, size_t checksum_offset);
