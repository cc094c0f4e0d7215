/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Removing a directory tree without following symlinks or crossing into other file systems.
 *
 * Everything is done relative to directory file descriptors opened with O_NOFOLLOW, so a symlink
 * planted anywhere in the tree (by an archive, say) is removed as a link and never leads outside.
 */
#pragma once

/** Remove name (relative to dir_fd, or a path with AT_FDCWD) and everything below it; missing is fine. */
int rm_rf_at(int dir_fd, const char *name);

/** rm_rf_at(AT_FDCWD, path) */
int rm_rf(const char *path);
