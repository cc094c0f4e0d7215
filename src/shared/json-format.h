/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * --json=pretty|short|off, as systemd's tools take it. A command's JSON printer writes compact JSON to
 * stdout as it always did; for "pretty" the capture around it (json_capture_begin/end) reindents that text
 * with json-c, so no printer needs to know the format.
 */
#pragma once

#include <stddef.h>
#include <stdio.h>

typedef enum JsonFormat {
        JSON_FORMAT_OFF = 0,    /* false where a "bool json" was */
        JSON_FORMAT_SHORT,
        JSON_FORMAT_PRETTY,
} JsonFormat;

/** "pretty", "short", "off"; NULL (a bare --json) is short. -EINVAL for anything else. */
int json_format_parse(const char *arg, JsonFormat *ret);

/** The value of --json given on the command line: 0, or -EUSAGE after saying what it takes. */
int json_format_option(const char *arg, JsonFormat *ret);

typedef struct JsonCapture {
        JsonFormat format;
        FILE *saved;            /* stdout while a pretty document is being captured */
        char *text;
        size_t size;
} JsonCapture;

/** Start capturing stdout when the format needs it (pretty); short and off leave stdout alone. */
int json_capture_begin(JsonCapture *c, JsonFormat format);

/** Print what was captured in the format asked for; -EBADMSG if it was no JSON (printed as it was). */
int json_capture_end(JsonCapture *c);
