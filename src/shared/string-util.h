/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * String and string-vector helpers for userspace.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "macro.h"

static inline bool streq(const char *a, const char *b) {
        return strcmp(a, b) == 0;
}

static inline bool streq_ptr(const char *a, const char *b) {
        return (!a && !b) || (a && b && streq(a, b));
}

static inline bool isempty(const char *s) {
        return !s || !*s;
}

/** If s starts with prefix, the rest of s, otherwise NULL. */
char *startswith(const char *s, const char *prefix);

/** Edits (insertions, deletions, substitutions) between a and b, at most 255 bytes each; SIZE_MAX beyond. */
size_t string_distance(const char *a, const char *b);

/** The entry of candidates (NULL-terminated) closest to s, if a typo away (up to a third of its length, at
 *  least 1 and at most 3 edits): for "did you mean"; NULL otherwise. */
const char *string_closest(const char *s, const char *const *candidates);
/** If s ends with suffix, where the suffix starts, otherwise NULL. */
char *endswith(const char *s, const char *suffix);

/** Parse yes/no words the way systemd does (1/yes/y/true/t/on, 0/no/n/false/f/off, any case). */
int parse_boolean(const char *s);

/** The value of a hex digit, or -EINVAL. */
int unhexchar(char c);

/** True if s has a byte below 0x20 or 0x7f. */
bool string_has_cc(const char *s);

/** A copy of s with every byte below 0x20 and 0x7f written as \xNN (for terminals and logs); NULL: out of memory. */
char *escape_cc(const char *s);

/**
 * Append the NULL-terminated list of strings to *p (which may be NULL).
 * @ret the new string or NULL when out of memory (*p is kept then)
 */
char *strextend(char **p, ...) __attribute__((sentinel));

/** A NULL-terminated vector of allocated strings. */
typedef char **strv_t;

size_t strv_length(char *const *l);
/** Append a copy of s; negative errno on failure. */
int strv_extend(char ***l, const char *s);
/** Append s itself, taking ownership (freed on failure). */
int strv_consume(char ***l, char *s);
bool strv_contains(char *const *l, const char *s);
char **strv_free(char **l);

static inline void strv_freep(char ***l) {
        strv_free(*l);
}
#define _cleanup_strv_free_ _cleanup_(strv_freep)

#define STRV_FOREACH(s, l) for (char *const *s = (l); s && *s; s++)
