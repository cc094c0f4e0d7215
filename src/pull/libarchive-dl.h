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

DLSYM_PROTOTYPE(archive_entry_hardlink);
DLSYM_PROTOTYPE(archive_entry_pathname);
DLSYM_PROTOTYPE(archive_entry_set_hardlink);
DLSYM_PROTOTYPE(archive_entry_set_pathname);
DLSYM_PROTOTYPE(archive_entry_size);
DLSYM_PROTOTYPE(archive_errno);
DLSYM_PROTOTYPE(archive_error_string);
DLSYM_PROTOTYPE(archive_read_data_block);
DLSYM_PROTOTYPE(archive_read_free);
DLSYM_PROTOTYPE(archive_read_new);
DLSYM_PROTOTYPE(archive_read_next_header);
DLSYM_PROTOTYPE(archive_read_open);
DLSYM_PROTOTYPE(archive_read_support_filter_all);
DLSYM_PROTOTYPE(archive_read_support_format_gnutar);
DLSYM_PROTOTYPE(archive_read_support_format_tar);
DLSYM_PROTOTYPE(archive_set_error);
DLSYM_PROTOTYPE(archive_write_close);
DLSYM_PROTOTYPE(archive_write_data_block);
DLSYM_PROTOTYPE(archive_write_disk_new);
DLSYM_PROTOTYPE(archive_write_disk_set_options);
DLSYM_PROTOTYPE(archive_write_disk_set_standard_lookup);
DLSYM_PROTOTYPE(archive_write_finish_entry);
DLSYM_PROTOTYPE(archive_write_free);
DLSYM_PROTOTYPE(archive_write_header);

/**
 * Loads libarchive (once).
 * @ret 0, or -EOPNOTSUPP with *ret_error saying what is missing
 */
int libarchive_load(const char **ret_error);
