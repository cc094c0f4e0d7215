/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Removing a directory tree (without following symlinks or crossing into other file systems).
 */
#pragma once

/** Remove path and everything below it; a missing path is fine. */
int rm_rf(const char *path);
