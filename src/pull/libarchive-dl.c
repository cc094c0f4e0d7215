/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * libarchive, loaded only when a tarball is unpacked.
 */
#include "libarchive-dl.h"
#include "macro.h"

DLSYM_DEFINE(archive_entry_hardlink);
DLSYM_DEFINE(archive_entry_pathname);
DLSYM_DEFINE(archive_entry_set_hardlink);
DLSYM_DEFINE(archive_entry_set_pathname);
DLSYM_DEFINE(archive_entry_size);
DLSYM_DEFINE(archive_errno);
DLSYM_DEFINE(archive_error_string);
DLSYM_DEFINE(archive_read_data_block);
DLSYM_DEFINE(archive_read_free);
DLSYM_DEFINE(archive_read_new);
DLSYM_DEFINE(archive_read_next_header);
DLSYM_DEFINE(archive_read_open);
DLSYM_DEFINE(archive_read_support_filter_all);
DLSYM_DEFINE(archive_read_support_format_gnutar);
DLSYM_DEFINE(archive_read_support_format_tar);
DLSYM_DEFINE(archive_set_error);
DLSYM_DEFINE(archive_write_close);
DLSYM_DEFINE(archive_write_data_block);
DLSYM_DEFINE(archive_write_disk_new);
DLSYM_DEFINE(archive_write_disk_set_options);
DLSYM_DEFINE(archive_write_disk_set_standard_lookup);
DLSYM_DEFINE(archive_write_finish_entry);
DLSYM_DEFINE(archive_write_free);
DLSYM_DEFINE(archive_write_header);

int libarchive_load(const char **ret_error) {
        static DlOnce once;
        static const DlSymbol symbols[] = {
                DLSYM_ENTRY(archive_entry_hardlink),
                DLSYM_ENTRY(archive_entry_pathname),
                DLSYM_ENTRY(archive_entry_set_hardlink),
                DLSYM_ENTRY(archive_entry_set_pathname),
                DLSYM_ENTRY(archive_entry_size),
                DLSYM_ENTRY(archive_errno),
                DLSYM_ENTRY(archive_error_string),
                DLSYM_ENTRY(archive_read_data_block),
                DLSYM_ENTRY(archive_read_free),
                DLSYM_ENTRY(archive_read_new),
                DLSYM_ENTRY(archive_read_next_header),
                DLSYM_ENTRY(archive_read_open),
                DLSYM_ENTRY(archive_read_support_filter_all),
                DLSYM_ENTRY(archive_read_support_format_gnutar),
                DLSYM_ENTRY(archive_read_support_format_tar),
                DLSYM_ENTRY(archive_set_error),
                DLSYM_ENTRY(archive_write_close),
                DLSYM_ENTRY(archive_write_data_block),
                DLSYM_ENTRY(archive_write_disk_new),
                DLSYM_ENTRY(archive_write_disk_set_options),
                DLSYM_ENTRY(archive_write_disk_set_standard_lookup),
                DLSYM_ENTRY(archive_write_finish_entry),
                DLSYM_ENTRY(archive_write_free),
                DLSYM_ENTRY(archive_write_header),
        };

        return dlopen_symbols(&once, "libarchive.so.13", symbols, ELEMENTSOF(symbols), ret_error);
}
