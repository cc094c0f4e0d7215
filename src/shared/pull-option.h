/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlboot-pull's options, one row each: the name on its command line, the kind of value, the
 * rd.systemd.pull= option that leads to it, and the line of --help. urlboot-pull parses and explains
 * its command line from this table (its rows made command-table.h's, pull_option_rows()); the import
 * generator writes the names from it; a test checks that the man pages list every row. A new option is
 * a row here, a case in urlboot-pull and (when an expression sets it) a line in the generator.
 */
#pragma once

#include <stdio.h>

#include "command-table.h"

/* Where a pull expression with "serve" keeps the file as downloaded (--keep-download=DIR/LOCAL), for urlboot-serve. */
#define PULL_KEEP_DOWNLOAD_DIR "/run/urlboot/downloads"

typedef enum PullOptionId {
        PULL_OPTION_CLASS,
        PULL_OPTION_IMAGE_ROOT,
        PULL_OPTION_VERIFY,
        PULL_OPTION_KEYRING,
        PULL_OPTION_MIRROR,
        PULL_OPTION_READ_ONLY,
        PULL_OPTION_FORCE,
        PULL_OPTION_RETRIES,
        PULL_OPTION_RETRY_MAX_TIME,
        PULL_OPTION_STALL_TIMEOUT,
        PULL_OPTION_MIN_RATE,
        PULL_OPTION_THREADS,
        PULL_OPTION_MEMORY_LIMIT,
        PULL_OPTION_CA,
        PULL_OPTION_ALLOW_HTTP_REDIRECT,
        PULL_OPTION_KEEP_DOWNLOAD,
        PULL_OPTION_PROGRESS,
        PULL_OPTION_JSON,
        _PULL_OPTION_MAX,
} PullOptionId;

typedef enum PullValue {
        PULL_VALUE_NONE,        /* a switch: --NAME */
        PULL_VALUE_WORD,        /* one of a few words */
        PULL_VALUE_OPTIONAL_WORD,       /* --NAME, or --NAME=WORD */
        PULL_VALUE_NUMBER,
        PULL_VALUE_SECONDS,
        PULL_VALUE_SIZE,        /* bytes with K, M, G suffixes */
        PULL_VALUE_URL,
        PULL_VALUE_PATH,
} PullValue;

typedef struct PullOption {
        const char *name;       /* urlboot-pull --NAME */
        PullValue value;
        const char *metavar;    /* --NAME=METAVAR in --help and the man page; NULL for a switch; "a|b|c" for
                                 * a PULL_VALUE_WORD lists its words (they complete) */
        const char *expression; /* the rd.systemd.pull= options (", "-separated) it comes from, or NULL */
        const char *help;       /* --help's text; "\n" continues on the next line */
} PullOption;

extern const PullOption pull_options[_PULL_OPTION_MAX];

/** Writes " --NAME" (value NULL) or " --NAME=VALUE" (value as given: quote it first if it needs it). */
void pull_option_write(FILE *f, PullOptionId id, const char *value);

/**
 * The table as command-table.h's rows, for urlboot-pull's parser, --help and --dump-table: rows[i] is
 * pull_options[i] with the id first_id + i; a PULL_VALUE_PATH completes to a directory (metavar "DIR")
 * or a file, a PULL_VALUE_WORD to the words of its metavar.
 */
void pull_option_rows(OptionRow rows[static _PULL_OPTION_MAX], int first_id);
