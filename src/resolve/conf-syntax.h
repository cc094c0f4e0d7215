/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemd's configuration file syntax, as v258's config_parse() reads it.
 *
 * Lines end at "\n", "\r", NUL or a combination of different ones ("\r\n", "\n\r", "\r\n\0"…). A line
 * whose first non-blank character is "#" or ";" is a comment, even inside a continuation. A line
 * ending in an odd number of backslashes continues on the next one, the last backslash becoming a
 * space. "[Name]" starts a section; "Key=Value" outside a known section is ignored; keys and values
 * are stripped of blanks. A UTF-8 byte order mark is skipped on the first line that has one.
 *
 * Invalid UTF-8, a malformed section header or a line of 1 MiB or more stop the parse (systemd then
 * keeps what it read so far): those return a negative errno.
 */
#pragma once

#include <stddef.h>

/** What the parser reports. */
typedef struct ConfSyntaxHandler {
        /**
         * One assignment in one of the known sections.
         *
         * @v section   the section's name
         * @v key       the key, stripped
         * @v value     the value, stripped (may be empty)
         * @v line      line number (of the last physical line of a continued line)
         */
        void (*assignment)(const char *section, const char *key, const char *value, unsigned line, void *userdata);
        /** A problem systemd would log for this line (a warning, or the error that stops the parse). */
        void (*diagnostic)(unsigned line, const char *message, void *userdata);
} ConfSyntaxHandler;

/** Lines longer than this (in bytes, without the line ending) stop the parse, as LONG_LINE_MAX does. */
#define CONF_SYNTAX_LINE_MAX (1024U * 1024U)

/**
 * Parse one file's text.
 *
 * @v text       the bytes (NUL bytes are line endings, as in systemd)
 * @v size       their number
 * @v sections   NULL-terminated list of the sections whose assignments are wanted
 * @ret          0, or -EINVAL (invalid UTF-8), -EBADMSG (bad section header), -ENOBUFS (line too long),
 *               -ENOMEM
 */
int conf_syntax_parse(const char *text, size_t size, const char *const *sections, const ConfSyntaxHandler *handler,
                      void *userdata);

/**
 * Split off the first word of *p as systemd's extract_first_word() does without flags: blanks
 * separate words, a backslash makes the next character literal, quotes are ordinary characters.
 *
 * @v p      in: where to start; out: after the word (NULL at the end)
 * @v ret    the word (allocated)
 * @ret      1 with a word, 0 at the end, -EINVAL for a trailing backslash, -ENOMEM
 */
int conf_extract_word(const char **p, char **ret);

/** Strict UTF-8 as systemd's utf8_is_valid(): no overlong forms, surrogates or noncharacters. */
int conf_utf8_is_valid(const char *s);
