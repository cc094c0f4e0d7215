/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * libarchive, loaded only when a tarball is unpacked.
 *
 * libarchive brings libxml2, ICU and libstdc++ with it: about 2 MiB of every run's memory that
 * raw images never use (docs/performance.md).
 */
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "dlopen-util.h"

/* The functions used, each called through sym_NAME: one list for the declarations, the
 * definitions and the table that loads them. */
#define LIBARCHIVE_SYMBOLS(X) \
        X(archive_entry_filetype) \
        X(archive_entry_gid) \
        X(archive_entry_hardlink) \
        X(archive_entry_pathname) \
        X(archive_entry_perm) \
        X(archive_entry_set_hardlink) \
        X(archive_entry_set_pathname) \
        X(archive_entry_set_perm) \
        X(archive_entry_size) \
        X(archive_entry_symlink) \
        X(archive_entry_uid) \
        X(archive_errno) \
        X(archive_error_string) \
        X(archive_read_data_block) \
        X(archive_read_free) \
        X(archive_read_new) \
        X(archive_read_next_header) \
        X(archive_read_open) \
        X(archive_read_support_format_gnutar) \
        X(archive_read_support_format_tar) \
        X(archive_set_error) \
        X(archive_write_close) \
        X(archive_write_data_block) \
        X(archive_write_disk_new) \
        X(archive_write_disk_set_options) \
        X(archive_write_finish_entry) \
        X(archive_write_free) \
        X(archive_write_header)

#define LIBARCHIVE_PROTOTYPE(name) DLSYM_PROTOTYPE(name);
LIBARCHIVE_SYMBOLS(LIBARCHIVE_PROTOTYPE)

/**
 * Loads libarchive (once).
 * @ret 0, or -EOPNOTSUPP with *ret_error one sentence saying what is missing and what to install
 */
int libarchive_load(const char **ret_error);
