/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * JSON for Varlink messages, on json-c: strict parsing of one message, compact output, and a
 * text buffer for replies that carry secrets.
 *
 * Parsing follows what sd-json (systemd v258) accepts where json-c is laxer: RFC 8259 syntax
 * only, valid UTF-8, no "\u0000" in strings (C strings cannot hold it), nothing after the
 * value, nesting at most VARLINK_JSON_DEPTH_MAX deep.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "macro.h"

#define VARLINK_JSON_DEPTH_MAX 64

/**
 * Parse one message's JSON text.
 * @v text  the text (need not be NUL-terminated)
 * @v len   its length
 * @ret     0 and *ret (a new reference), or -EBADMSG for anything that is not one valid JSON value
 */
int varlink_json_parse(const char *text, size_t len, struct json_object **ret);

/** Compact JSON text of o (no spaces, "/" not escaped); NULL when out of memory. Free with free(). */
char *varlink_json_format(struct json_object *o);

/** Overwrite every string (values, not keys) inside o with zeros: call before dropping secrets. */
void varlink_json_wipe_strings(struct json_object *o);

/**
 * An integer field as uint64: a JSON integer ≥ 0, an integral float within range, or a decimal
 * string (clients that cannot send 64-bit numbers use strings).
 * @ret  0, or -ERANGE / -EINVAL
 */
int varlink_json_get_uint64(struct json_object *o, uint64_t *ret);

/** True if o is a JSON integer, an integral float, or a string (sd-varlink's check for "int" fields). */
bool varlink_json_is_int_like(struct json_object *o);

static inline void json_object_putp(struct json_object **o) {
        if (*o)
                json_object_put(*o);
}
#define _cleanup_json_ _cleanup_(json_object_putp)

/**
 * A growing text buffer that is wiped whenever it moves or is freed.
 * Replies holding passwords are built here rather than in json-c objects.
 */
typedef struct SecretText {
        char *data;
        size_t len;
        size_t allocated;
        bool failed; /* an append ran out of memory */
} SecretText;

void secret_text_append(SecretText *t, const char *s, size_t n);
static inline void secret_text_puts(SecretText *t, const char *s) {
        secret_text_append(t, s, strlen(s));
}
/** Append s as a JSON string literal (quoted and escaped). */
void secret_text_append_json_string(SecretText *t, const char *s);
/** Wipe and free. */
void secret_text_done(SecretText *t);
