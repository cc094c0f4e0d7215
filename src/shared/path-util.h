/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Path helpers: validity and normalization as systemd defines them.
 */
#pragma once

#include <stdbool.h>

static inline bool path_is_absolute(const char *p) {
        return p && p[0] == '/';
}

/** Non-empty, shorter than PATH_MAX, each component at most NAME_MAX bytes. */
bool path_is_valid(const char *p);

/** Valid, and free of "." and ".." components and of "//". */
bool path_is_normalized(const char *p);

/** A single path component: non-empty, not "." or "..", no "/", at most NAME_MAX bytes. */
bool filename_is_valid(const char *p);

/** Collapse "//" and drop "." components and trailing slashes, in place. Keeps "..". */
char *path_simplify(char *p);

/** "a" + "/" + "b" with exactly one slash between them; NULL when out of memory. */
char *path_join(const char *a, const char *b);

/** Newly allocated last component of p ("/" for the root); -EINVAL for an empty path. */
int path_extract_filename(const char *p, char **ret);

/** Newly allocated directory part of p ("." when there is none). */
int path_extract_directory(const char *p, char **ret);

/** root + rel, each component of rel matched case-insensitively against what exists (as FAT, an ESP's file
 *  system, does; a host copy of an ESP is often on a case-sensitive one): an exact match first, then the first
 *  entry equal but for case. rel may use '\' as EFI paths do. -ENOENT when a component is missing. */
int path_join_caseless(const char *root, const char *rel, char **ret);
