/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UTF-8 <-> CHAR16: urlboot's text is UTF-8, the firmware's CHAR16 (UTF-16).
 */
#pragma once

#include <efi.h>

#include "macro-fundamental.h"

/** Convert UTF-8 to a newly allocated CHAR16 string (NULL when out of memory or invalid). */
CHAR16 *utf8_to_char16(const char *s, size_t len);

/** Convert CHAR16 to newly allocated UTF-8 (len in CHAR16 units; stops at NUL). */
char *char16_to_utf8(const CHAR16 *s, size_t len);
