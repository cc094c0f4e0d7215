/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Encoding a string for use in a /dev symlink name, as udev's *_ENC properties do.
 *
 * ASCII letters, digits and "#+-.:=@_" and valid multi-byte UTF-8 stay; every other byte becomes
 * "\xNN". So a reference "my disk/1" links as "my\x20disk\x2f1".
 */
#pragma once

/** @ret newly allocated encoding, or NULL when out of memory */
char *udev_encode_string(const char *s);
