/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The line rules systemd-boot uses for loader.conf, Type #1 entries, .osrel and .profile.
 *
 * Lines end at '\n' or '\r'; blanks around a line are dropped; empty lines and '#' lines are skipped.
 * The key runs up to the first separator character, then all separators are skipped; a line without
 * a separator is skipped. A value that starts and ends with '"' loses both quotes. No escapes.
 */
#pragma once

#include "macro-fundamental.h"

typedef struct ConfLine {
        const char *key, *value;
        size_t key_len, value_len;
} ConfLine;

/**
 * The next key/value line of text[*pos..size).
 * @v separators  " \t" for loader.conf and Type #1, "=" for os-release style text
 * @ret true with *ret filled and *pos advanced, false at the end
 */
bool conf_line_next(const char *text, size_t size, size_t *pos, const char *separators, ConfLine *ret);

/** Whether the line's key is key. */
bool conf_line_key_is(const ConfLine *l, const char *key);

/** systemd-boot's booleans (case-sensitive): 1 yes y true t on / 0 no n false f off. @ret 1, 0, -EINVAL */
int conf_parse_bool(const char *v, size_t n);

/** A copy of the value of key in os-release style text ("KEY=VALUE"), or NULL. */
char *conf_osrel_value(const char *text, size_t size, const char *key);
