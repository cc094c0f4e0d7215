/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Files on a FAT volume through the firmware's Simple File System protocol: the ESP the boot manager
 * was loaded from, or the XBOOTLDR partition beside it.
 */
#pragma once

#include <efi.h>

#include "macro-fundamental.h"

/** The root directory of the volume on device, or NULL (no file system: e.g. we were HTTP-booted). */
EFI_FILE *volume_open_root(EFI_HANDLE device);

/** Whether device carries a file system we can open. */
bool volume_exists(EFI_HANDLE device);

/** Read a whole file (at most max bytes) into a new buffer, NUL-terminated. */
EFI_STATUS volume_read_file(EFI_FILE *root, const CHAR16 *path, size_t max, char **ret, size_t *ret_size);

/** Whether path names a regular file. */
bool volume_file_exists(EFI_FILE *root, const CHAR16 *path);

/**
 * Call cb for each regular file in directory dir (a missing directory has none).
 * name is the file's name in UTF-8.
 */
void volume_foreach_file(EFI_FILE *root, const CHAR16 *dir, void (*cb)(const char *name, void *userdata),
                         void *userdata);

/** Rename dir\old to new (a name in the same directory) and flush it to disk. */
EFI_STATUS volume_rename(EFI_FILE *root, const CHAR16 *dir, const char *old_name, const char *new_name);

/** The XBOOTLDR partition on the same disk as the partition device, or NULL. */
EFI_HANDLE volume_find_xbootldr(EFI_HANDLE device);

/** "dir\name" as a new CHAR16 string. */
CHAR16 *volume_path_join(const CHAR16 *dir, const char *name_utf8);
