/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Varlink method calls and replies.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "string-util.h"
#include "varlink-json.h"
#include "varlink-message.h"

/* json-c keeps only the last of duplicate keys, so "twice" cannot be seen here; the rest can. */
int varlink_call_parse(struct json_object *msg, VarlinkCall *ret) {
        VarlinkCall c = {};

        assert(ret);

        if (!json_object_is_type(msg, json_type_object))
                return -EBADMSG;

        json_object_object_foreach(msg, key, value) {
                if (streq(key, "method")) {
                        if (!json_object_is_type(value, json_type_string))
                                return -EBADMSG;
                        c.method = json_object_get_string(value);
                } else if (streq(key, "parameters")) {
                        if (value && !json_object_is_type(value, json_type_object))
                                return -EBADMSG;
                        c.parameters = value;
                } else if (streq(key, "oneway") || streq(key, "more")) {
                        /* Whichever of the two comes second is refused, even false. */
                        if (c.flags != 0 || !json_object_is_type(value, json_type_boolean))
                                return -EBADMSG;
                        if (json_object_get_boolean(value))
                                c.flags |= streq(key, "oneway") ? VARLINK_CALL_ONEWAY : VARLINK_CALL_MORE;
                } else
                        return -EBADMSG;
        }
        if (!c.method)
                return -EBADMSG;

        *ret = c;
        return 0;
}

int varlink_reply_parse(struct json_object *msg, VarlinkReply *ret) {
        VarlinkReply r = {};

        assert(ret);

        if (!json_object_is_type(msg, json_type_object))
                return -EBADMSG;

        json_object_object_foreach(msg, key, value) {
                if (streq(key, "error")) {
                        if (!json_object_is_type(value, json_type_string))
                                return -EBADMSG;
                        r.error = json_object_get_string(value);
                } else if (streq(key, "parameters")) {
                        if (value && !json_object_is_type(value, json_type_object))
                                return -EBADMSG;
                        r.parameters = value;
                } else if (streq(key, "continues")) {
                        if (!json_object_is_type(value, json_type_boolean))
                                return -EBADMSG;
                        r.continues = json_object_get_boolean(value);
                } else
                        return -EBADMSG;
        }
        /* An error is final. */
        if (r.error && r.continues)
                return -EBADMSG;

        *ret = r;
        return 0;
}

char *varlink_call_format(const char *method, struct json_object *parameters, VarlinkCallFlags flags) {
        _cleanup_json_ struct json_object *o = json_object_new_object();

        assert(method);

        if (!o)
                return NULL;
        if (json_object_object_add(o, "method", json_object_new_string(method)) < 0 ||
            json_object_object_add(o, "parameters",
                                   parameters ? json_object_get(parameters) : json_object_new_object()) < 0)
                return NULL;
        if ((flags & VARLINK_CALL_ONEWAY) && json_object_object_add(o, "oneway", json_object_new_boolean(1)) < 0)
                return NULL;
        if ((flags & VARLINK_CALL_MORE) && json_object_object_add(o, "more", json_object_new_boolean(1)) < 0)
                return NULL;
        return varlink_json_format(o);
}

char *varlink_reply_format(const char *error, struct json_object *parameters, bool continues) {
        _cleanup_json_ struct json_object *o = json_object_new_object();

        if (!o)
                return NULL;
        if (error && json_object_object_add(o, "error", json_object_new_string(error)) < 0)
                return NULL;
        /* v258 leaves out empty parameters in errors ({"error":"...NoPasswordAvailable"}) but always
         * sends them in replies. */
        if (parameters || !error)
                if (json_object_object_add(o, "parameters",
                                           parameters ? json_object_get(parameters) : json_object_new_object()) < 0)
                        return NULL;
        if (continues && json_object_object_add(o, "continues", json_object_new_boolean(1)) < 0)
                return NULL;
        return varlink_json_format(o);
}
