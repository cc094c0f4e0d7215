/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * JSON for Varlink messages, on json-c.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "varlink-json.h"

/* What json-c accepts beyond RFC 8259 even in strict mode (single quotes, NaN, comments) and what
 * it would silently change ("a\u0000b" cut to "a" in keys, where sd-json refuses the string) is
 * caught by a pass over the text: outside strings only JSON's own characters may appear, and
 * inside strings no escaped NUL. */
static bool text_is_plain_json(const char *text, size_t len) {
        bool in_string = false;

        for (size_t i = 0; i < len; i++) {
                char c = text[i];

                if (!in_string) {
                        if (c == '"')
                                in_string = true;
                        else if (!strchr("{}[]:, \t\r\n0123456789+-.eEtruefalsn", c) || c == 0)
                                return false;
                        continue;
                }
                if (c == '"')
                        in_string = false;
                else if ((unsigned char) c < 0x20 || c == 0x7f)
                        return false; /* raw control characters; sd-json also refuses DEL */
                else if (c == '\\') {
                        if (i + 5 < len && text[i + 1] == 'u' && memcmp(text + i + 2, "0000", 4) == 0)
                                return false;
                        i++; /* the escaped character never ends the string */
                }
        }
        return true;
}

int varlink_json_parse(const char *text, size_t len, struct json_object **ret) {
        struct json_tokener *tok;
        struct json_object *o;
        enum json_tokener_error e;
        size_t used;

        assert(text || len == 0);
        assert(ret);

        if (len > INT32_MAX || !text_is_plain_json(text, len))
                return -EBADMSG;
        if (memchr(text, 0, len))
                return -EBADMSG;

        tok = json_tokener_new_ex(VARLINK_JSON_DEPTH_MAX);
        if (!tok)
                return -ENOMEM;
        json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);

        o = json_tokener_parse_ex(tok, text, (int) len);
        e = json_tokener_get_error(tok);
        used = json_tokener_get_parse_end(tok);
        if (e == json_tokener_continue && used == len) {
                /* A number at the very end is complete only once something follows it. */
                o = json_tokener_parse_ex(tok, " ", 1);
                e = json_tokener_get_error(tok);
        }
        /* Strings of the message are kept in the tokener's scratch buffer too. */
        if (tok->pb && tok->pb->buf)
                explicit_bzero(tok->pb->buf, tok->pb->size);
        json_tokener_free(tok);

        if (!o && e == json_tokener_success) /* the text was "null" */
                o = NULL;
        else if (!o || e != json_tokener_success) {
                if (o)
                        json_object_put(o);
                return -EBADMSG;
        }

        /* Only whitespace may follow the value. */
        for (; used < len; used++)
                if (!strchr(" \t\r\n", text[used])) {
                        json_object_put(o);
                        return -EBADMSG;
                }
        *ret = o;
        return 0;
}

char *varlink_json_format(struct json_object *o) {
        const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

        return s ? strdup(s) : NULL;
}

void varlink_json_wipe_strings(struct json_object *o) {
        switch (json_object_get_type(o)) {
        case json_type_string:
                /* The object owns this memory; wiping it in place is the only way to erase it. */
                explicit_bzero((char *) json_object_get_string(o), (size_t) json_object_get_string_len(o));
                break;
        case json_type_array:
                for (size_t i = 0; i < json_object_array_length(o); i++)
                        varlink_json_wipe_strings(json_object_array_get_idx(o, i));
                break;
        case json_type_object: {
                json_object_object_foreach(o, key, value) {
                        (void) key;
                        varlink_json_wipe_strings(value);
                }
                break;
        }
        default:
                break;
        }
}

static int parse_decimal_u64(const char *s, uint64_t *ret) {
        uint64_t v = 0;

        if (!*s)
                return -EINVAL;
        for (; *s; s++) {
                if (*s < '0' || *s > '9')
                        return -EINVAL;
                if (v > (UINT64_MAX - (uint64_t) (*s - '0')) / 10)
                        return -ERANGE;
                v = v * 10 + (uint64_t) (*s - '0');
        }
        *ret = v;
        return 0;
}

static bool double_is_integral(double d) {
        return isfinite(d) && d == floor(d);
}

int varlink_json_get_uint64(struct json_object *o, uint64_t *ret) {
        assert(ret);

        switch (json_object_get_type(o)) {
        case json_type_int:
                /* json-c stores big positive numbers unsigned, the rest signed. */
                if (json_object_get_int64(o) < 0)
                        return -ERANGE;
                *ret = json_object_get_uint64(o);
                return 0;
        case json_type_double: {
                double d = json_object_get_double(o);

                /* 2^64 is the first double that does not fit. */
                if (!double_is_integral(d) || d < 0 || d >= 18446744073709551616.0)
                        return -ERANGE;
                *ret = (uint64_t) d;
                return 0;
        }
        case json_type_string:
                return parse_decimal_u64(json_object_get_string(o), ret);
        default:
                return -EINVAL;
        }
}

bool varlink_json_is_int_like(struct json_object *o) {
        switch (json_object_get_type(o)) {
        case json_type_int:
        case json_type_string:
                return true;
        case json_type_double: {
                double d = json_object_get_double(o);

                return double_is_integral(d) && d >= -9223372036854775808.0 && d < 18446744073709551616.0;
        }
        default:
                return false;
        }
}

static bool secret_text_reserve(SecretText *t, size_t add) {
        size_t n;
        char *b;

        if (t->failed)
                return false;
        if (t->len + add + 1 <= t->allocated)
                return true;
        n = t->allocated > 0 ? t->allocated : 256;
        while (n < t->len + add + 1)
                n *= 2;
        b = malloc(n);
        if (!b) {
                t->failed = true;
                return false;
        }
        if (t->data) {
                memcpy(b, t->data, t->len);
                explicit_bzero(t->data, t->allocated);
                free(t->data);
        }
        t->data = b;
        t->allocated = n;
        return true;
}

void secret_text_append(SecretText *t, const char *s, size_t n) {
        assert(t);
        assert(s || n == 0);

        if (!secret_text_reserve(t, n))
                return;
        memcpy(t->data + t->len, s, n);
        t->len += n;
        t->data[t->len] = 0;
}

void secret_text_append_json_string(SecretText *t, const char *s) {
        assert(t);
        assert(s);

        secret_text_append(t, "\"", 1);
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;
                char esc[8];

                if (c == '"' || c == '\\') {
                        esc[0] = '\\';
                        esc[1] = (char) c;
                        secret_text_append(t, esc, 2);
                } else if (c < 0x20) {
                        (void) snprintf(esc, sizeof(esc), "\\u%04x", c);
                        secret_text_append(t, esc, 6);
                } else
                        secret_text_append(t, s, 1);
        }
        secret_text_append(t, "\"", 1);
}

void secret_text_done(SecretText *t) {
        assert(t);

        if (t->data) {
                explicit_bzero(t->data, t->allocated);
                free(t->data);
        }
        *t = (SecretText) {};
}
