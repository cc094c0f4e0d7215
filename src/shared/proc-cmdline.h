/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The kernel command line, split and filtered exactly as systemd does.
 *
 * Words are separated by whitespace; single or double quotes group words and are removed;
 * backslashes are ordinary characters; an unterminated quote runs to the end of the line.
 * Keys compare with "-" and "_" treated as equal. "rd." words are for the initrd only.
 */
#pragma once

#include <stdbool.h>

typedef enum ProcCmdlineFlags {
        /* In the initrd, "rd.foo=x" is seen as "foo=x". */
        PROC_CMDLINE_STRIP_RD_PREFIX = 1 << 0,
        /* In the initrd, words without "rd." are ignored. */
        PROC_CMDLINE_RD_STRICT = 1 << 1,
} ProcCmdlineFlags;

/** The raw command line: $SYSTEMD_PROC_CMDLINE if set, else /proc/cmdline, without the final newline. */
int proc_cmdline(char **ret);

/**
 * Extract the next word.
 * @v p     position in the line, advanced past the word
 * @ret     1 and a newly allocated word, 0 at the end, -ENOMEM
 */
int cmdline_extract_word(const char **p, char **ret);

/**
 * Split a whole line into words.
 * @ret 0 or negative errno; ret is a NULL-terminated vector
 */
int cmdline_split(const char *line, char ***ret);

/**
 * Called for each word; value is NULL for "key" and "" for "key=".
 * A negative return stops the walk and is returned by proc_cmdline_parse().
 */
typedef int (*proc_cmdline_parse_t)(const char *key, const char *value, void *userdata);

/** Walk the words of line (NULL = proc_cmdline()) with the rd. rules for flags. */
int proc_cmdline_parse_given(const char *line, proc_cmdline_parse_t cb, void *userdata, ProcCmdlineFlags flags);
int proc_cmdline_parse(proc_cmdline_parse_t cb, void *userdata, ProcCmdlineFlags flags);

/** Compare keys with "-" and "_" equivalent. */
bool proc_cmdline_key_streq(const char *x, const char *y);
/** If s starts with prefix ("-"/"_" equivalent), the rest of s, otherwise NULL. */
const char *proc_cmdline_key_startswith(const char *s, const char *prefix);

/**
 * The value of the last occurrence of key.
 * @ret 1 and value (NULL for a bare "key"), 0 if absent, negative errno
 */
int proc_cmdline_get_key(const char *key, ProcCmdlineFlags flags, char **ret_value);
