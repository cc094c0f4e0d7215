/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Byte-string helpers that need no libc.
 *
 * The boot loader has no C library, so the parsers shared with userspace use these
 * instead of <string.h>. They are plain and bounded; speed does not matter here.
 */
#pragma once

#include "macro-fundamental.h"

size_t fstrlen(const char *s);
size_t fstrnlen(const char *s, size_t max);
int fstrcmp(const char *a, const char *b);
int fstrncmp(const char *a, const char *b, size_t n);
bool fstreq(const char *a, const char *b);
int fmemcmp(const void *a, const void *b, size_t n);
void *fmemcpy(void *dest, const void *src, size_t n);
void *fmemset(void *dest, int c, size_t n);

/** Duplicate n bytes of s as a NUL-terminated string; NULL when out of memory. */
char *fstrndup(const char *s, size_t n);
char *fstrdup(const char *s);

/** If s starts with prefix, return the rest of s, otherwise NULL. */
const char *fstartswith(const char *s, const char *prefix);

/** The same, comparing ASCII letters case-insensitively (FAT names, ".CONF"). */
const char *fendswith_no_case(const char *s, const char *suffix);

/**
 * The decimal number in the n bytes at s (digits only: no sign, no blanks), at most max.
 * @ret 0, -EINVAL (empty, or a byte that is not a digit: checked first), -ERANGE (digits only, above max)
 */
int fparse_uint64(const char *s, size_t n, uint64_t max, uint64_t *ret);

/** Whether a and b are equal, ASCII letters compared case-insensitively. */
bool fstrcaseeq(const char *a, const char *b);

/** v in decimal into buf (at least 21 bytes), NUL-terminated. @ret the number of digits */
size_t fformat_uint(uint64_t v, char *buf);

static inline bool fascii_isdigit(char c) {
        return c >= '0' && c <= '9';
}

static inline bool fascii_isalpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool fascii_isalnum(char c) {
        return fascii_isdigit(c) || fascii_isalpha(c);
}

static inline char fascii_tolower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c - 'A' + 'a') : c;
}

/** Whitespace as the boot loader spec and the kernel command line understand it. */
static inline bool fascii_isspace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
