/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Unpacking a (compressed) tarball into a directory with libarchive, safely.
 *
 * Entries with absolute paths or ".." components are refused, and nothing is written through a
 * symlink (libarchive's SECURE_SYMLINKS), so a hostile archive cannot reach outside the directory.
 * Modes, times, ACLs, extended attributes and hard links are kept; ownership too when run as root.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/** Supplies archive bytes: @ret bytes, 0 at the end, or negative errno. */
typedef long (*tar_read_t)(void *userdata, void *buf, size_t size);

/**
 * Unpack into dir (absolute, with no symlink in it), which must exist.
 * @v error  reason on failure
 * @ret 0, -EBADMSG for a damaged or hostile archive, -ENOSPC, other negative errno
 */
int tar_unpack(const char *dir, tar_read_t read, void *userdata, char *error, size_t error_size);
