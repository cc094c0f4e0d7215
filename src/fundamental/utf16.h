/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UTF-8 <-> UTF-16LE conversion.
 *
 * EFI variables and device path nodes store text as UTF-16LE; everything else in urlboot is UTF-8.
 * The UTF-16 side is handled as bytes, so unaligned buffers (efivarfs files) are fine on any host.
 */
#pragma once

#include "macro-fundamental.h"

/**
 * Decode UTF-16LE to UTF-8.
 *
 * Decoding stops at the first NUL code unit or at the end of the buffer. An unpaired surrogate
 * becomes U+FFFD, as firmware sometimes stores them.
 *
 * @v buf     UTF-16LE bytes
 * @v size    size in bytes (an odd trailing byte is ignored)
 * @v ret     newly allocated NUL-terminated UTF-8 (ffree())
 * @ret       0 or -ENOMEM
 */
int utf16le_to_utf8(const void *buf, size_t size, char **ret);

/**
 * Encode UTF-8 as UTF-16LE, including a terminating NUL code unit.
 *
 * @v s        UTF-8 text
 * @v len      length of s in bytes
 * @v ret      newly allocated UTF-16LE bytes (ffree())
 * @v ret_size size of ret in bytes, terminating NUL included
 * @ret        0, -EILSEQ for invalid UTF-8 (overlong forms, surrogates, > U+10FFFF), -ENOMEM
 */
int utf8_to_utf16le(const char *s, size_t len, void **ret, size_t *ret_size);

/**
 * Decode one UTF-8 code point.
 *
 * @ret        number of bytes consumed (1–4), or -EILSEQ
 */
int utf8_decode(const char *s, size_t len, uint32_t *ret_cp);

/** True if s[0..len) is valid UTF-8. */
bool utf8_is_valid(const char *s, size_t len);
