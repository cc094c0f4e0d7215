/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Version comparison with systemd's strverscmp_improved() rules.
 *
 * Orders partition labels ("root-1.10" is newer than "root-1.9"), Type #1 entry versions and entry IDs.
 * Rules, in order at each step: characters other than ASCII letters, digits and "~-^." only separate
 * segments; "~" sorts before everything, even the end of the string; "-", "^" and "." sort after the end
 * but before any other character; numeric runs compare by value (leading zeros ignored) and beat letters;
 * letter runs compare bytewise, a longer run winning a tie.
 */
#pragma once

/**
 * Compare two version strings.
 *
 * @v a       first version; NULL is treated as ""
 * @v b       second version; NULL is treated as ""
 * @ret       negative if a is older than b, 0 if equal, positive if a is newer
 */
int version_compare(const char *a, const char *b);
