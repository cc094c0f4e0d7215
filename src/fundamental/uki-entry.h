/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Type #2 entries: menu entries made from a unified kernel image in \EFI\Linux.
 *
 * Title, version and sort key come from the UKI's .osrel (PRETTY_NAME ?: IMAGE_ID ?: NAME ?: ID;
 * IMAGE_VERSION ?: VERSION ?: VERSION_ID ?: BUILD_ID; IMAGE_ID ?: ID), options from .cmdline (shown
 * but implied: the UKI applies them itself). A multi-profile UKI gives one entry per profile that has
 * an .osrel: ID "FILE@PROFILE-ID" (or "FILE@N"), title "NAME (TITLE)" (or "(ID)", "(Profile #N+1)").
 */
#pragma once

#include "bls.h"

/**
 * Make the entries of one UKI file.
 * @v filename  the file's name, e.g. "debian+3.efi" (counters are parsed as for Type #1)
 * @v path      what the entries boot, e.g. "\\EFI\\Linux\\debian+3.efi"
 * @v loaded    whether image is laid out as loaded in memory (see pe_find_section)
 * @ret the number of entries stored in ret[0..max), or -EBADMSG (not a UKI), -ENOMEM
 */
int uki_entries_make(const char *filename, const char *path, const void *image, size_t size, bool loaded,
                     BlsEntry **ret, unsigned max);
