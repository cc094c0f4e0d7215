/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the Varlink framing and JSON layer, as a server reads a stream.
 * Input: one byte choosing the read size (1-256), then the stream.
 * Oracles: the frame never buffers more than its limit and hands out exactly the NUL-separated
 * pieces of the stream, in order, until one exceeds the limit; every message the JSON parser
 * accepts formats to text that parses to an equal object, and a call read from it formats to a
 * call with the same method and flags; a name reported as given twice is a member of the parsed
 * message (or of its parameters), and a message formatted by json-c (which keeps one of each name)
 * has none given twice; repeated "oneway"/"more" members are taken or refused as sd-varlink 262 does
 * (check_call_flags). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "varlink-frame.h"
#include "varlink-json.h"
#include "varlink-members.h"
#include "varlink-message.h"

#define LIMIT 512

/* A duplicate reported is a name the object really has (json-c kept one of them). */
static void check_duplicates(const char *text, size_t len, struct json_object *message) {
        struct json_object *in = message, *unused;
        char *name = NULL;
        int r = varlink_json_duplicate_member(text, len, &name);

        if (r > 0)
                r &= ~VARLINK_CALL_FLAGS_REPEATED;      /* the flags' order is check_call_flags()'s */
        if (r < 0 && r != -ENOMEM)
                abort(); /* json-c accepted the text: it is valid JSON */
        if (r == VARLINK_DUPLICATE_IN_PARAMETERS && !json_object_object_get_ex(message, "parameters", &in))
                abort();
        if (r > 0 && (!name || !json_object_is_type(in, json_type_object) || !json_object_object_get_ex(in, name, &unused)))
                abort();
        free(name);
}

static void check_json(const char *text, size_t len) {
        struct json_object *a = NULL, *b = NULL, *c = NULL;
        char *again, *call_text;
        VarlinkCall call, call2;
        VarlinkReply reply;
        char *dup = NULL;

        if (varlink_json_parse(text, len, &a) < 0)
                return;
        again = varlink_json_format(a);
        if (!again)
                abort();
        if (varlink_json_parse(again, strlen(again), &b) < 0 || !json_object_equal(a, b))
                abort();

        check_duplicates(text, len, a);
        check_duplicates(again, strlen(again), b);
        if (varlink_json_duplicate_member(again, strlen(again), &dup) != 0)
                abort();

        (void) varlink_reply_parse(a, &reply);
        if (varlink_call_parse(a, &call) >= 0) {
                call_text = varlink_call_format(call.method, call.parameters, call.flags);
                if (!call_text || varlink_json_parse(call_text, strlen(call_text), &c) < 0 ||
                    varlink_call_parse(c, &call2) < 0 || strcmp(call.method, call2.method) != 0 ||
                    call.flags != call2.flags)
                        abort();
                free(call_text);
                json_object_put(c);
        }
        free(again);
        json_object_put(a);
        json_object_put(b);
}

/* sd-varlink 262's rule for the members "oneway" and "more", in order, repeats included: each must be a
 * boolean, none may follow one that was true. The message is built from the input's first bytes (names
 * escaped or not, spaces or not), so the raw-text scanner of varlink-members.c meets what json-c folds away;
 * the verdict of the server's path (duplicate check, then varlink_call_parse) must be the rule's. */
static void check_call_flags(const uint8_t *data, size_t size) {
        static const char *const values[] = { "true", "false", "1", "null", "\"x\"" };
        char text[512] = "{\"method\":\"a.b.C\"";
        unsigned flags = 0;
        bool refused = false;
        struct json_object *o = NULL;
        VarlinkCall call;
        char *dup = NULL;
        int r;

        for (size_t i = 0; i < size && i < 6; i++) {
                bool more = data[i] & 1, escaped = data[i] & 2, spaced = data[i] & 4;
                unsigned v = (data[i] >> 3) % 5;
                const char *name = more ? (escaped ? "m\\u006fre" : "more") : (escaped ? "one\\u0077ay" : "oneway");

                snprintf(text + strlen(text), sizeof text - strlen(text), ",%s\"%s\"%s:%s", spaced ? " " : "", name,
                         spaced ? " " : "", values[v]);
                if (flags || v > 1)
                        refused = true;
                else if (v == 0)
                        flags = more ? VARLINK_CALL_MORE : VARLINK_CALL_ONEWAY;
        }
        strcat(text, "}");
        if (varlink_json_parse(text, strlen(text), &o) < 0)
                abort();        /* always valid JSON */
        r = varlink_json_duplicate_member(text, strlen(text), &dup);
        if (r < 0)
                abort();
        if (r > 0 && (r & VARLINK_CALL_FLAGS_REPEATED))
                varlink_call_fold_flags(o);     /* as varlink-connection.c does */
        if (r == VARLINK_DUPLICATE_IN_MESSAGE || varlink_call_parse(o, &call) < 0) {
                if (!refused)
                        abort();        /* 262 takes it */
        } else if (refused || call.flags != flags)
                abort();                /* 262 refuses it, or reads other flags */
        free(dup);
        json_object_put(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        check_call_flags(data, size);
        const char *stream = (const char *) data + 1;
        size_t chunk, fed = 0, expected = 0;
        VarlinkFrame f;

        if (size < 1)
                return 0;
        chunk = (size_t) data[0] + 1;
        size--;

        varlink_frame_init(&f, LIMIT);
        while (fed < size) {
                size_t n = size - fed < chunk ? size - fed : chunk;
                char *dst, *msg;
                size_t room, len;
                int r;

                r = varlink_frame_reserve(&f, n, &dst, &room);
                if (r == -EMSGSIZE)
                        break;
                if (r < 0)
                        abort();
                if (room > n)
                        room = n;
                memcpy(dst, stream + fed, room);
                varlink_frame_commit(&f, room);
                fed += room;
                if (f.allocated > LIMIT || varlink_frame_pending(&f) > LIMIT)
                        abort();

                while ((r = varlink_frame_next(&f, &msg, &len)) > 0) {
                        /* The next piece of the stream, exactly. */
                        const char *nul = memchr(stream + expected, 0, size - expected);

                        if (!nul || (size_t) (nul - (stream + expected)) != len ||
                            memcmp(stream + expected, msg, len) != 0 || len >= LIMIT)
                                abort();
                        expected += len + 1;
                        check_json(msg, len);
                }
                if (r == -EMSGSIZE) {
                        /* Only when LIMIT bytes came without a NUL. */
                        const char *nul = memchr(stream + expected, 0, fed - expected);

                        if (nul || fed - expected < LIMIT)
                                abort();
                        break;
                }
        }
        varlink_frame_done(&f);
        return 0;
}
