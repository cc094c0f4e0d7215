/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The parameters of one io.systemd.AskPassword.Ask call.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ask-request.h"
#include "string-util.h"
#include "varlink-json.h"

bool ask_text_is_safe(const char *s) {
        assert(s);

        for (; *s; s++)
                if ((unsigned char) *s < ' ' || strchr("\"'\\\x7f", *s))
                        return false;
        return true;
}

static int parse_text(struct json_object *v, const char **ret) {
        if (!json_object_is_type(v, json_type_string) || !ask_text_is_safe(json_object_get_string(v)))
                return -EINVAL;
        *ret = json_object_get_string(v);
        return 0;
}

static int parse_bool(struct json_object *v, bool *ret) {
        if (!json_object_is_type(v, json_type_boolean))
                return -EINVAL;
        *ret = json_object_get_boolean(v);
        return 0;
}

static int parse_echo(struct json_object *v, AskEcho *ret) {
        const char *s;

        if (!json_object_is_type(v, json_type_string))
                return -EINVAL;
        s = json_object_get_string(v);
        if (streq(s, "off"))
                *ret = ASK_ECHO_OFF;
        else if (streq(s, "on"))
                *ret = ASK_ECHO_ON;
        else if (streq(s, "masked"))
                *ret = ASK_ECHO_MASKED;
        else
                return -EINVAL;
        return 0;
}

/* Strings as v258's safe_atou64() reads them (strtoull with base 0): leading whitespace, "+",
 * 0x hex and 0 octal are fine, "-" only for zero, nothing may follow. */
static int parse_usec_string(const char *s, uint64_t *ret) {
        unsigned long long v;
        char *end;

        s += strspn(s, " \t\n\r\v\f");
        errno = 0;
        v = strtoull(s, &end, 0);
        if (errno != 0 || end == s || *end != 0 || (*s == '-' && v != 0))
                return -EINVAL;
        *ret = v;
        return 0;
}

/* v258 reads null as UINT64_MAX: no deadline. */
static int parse_usec(struct json_object *v, uint64_t *ret) {
        if (!v) {
                *ret = UINT64_MAX;
                return 0;
        }
        if (json_object_is_type(v, json_type_string))
                return parse_usec_string(json_object_get_string(v), ret);
        return varlink_json_get_uint64(v, ret) < 0 ? -EINVAL : 0;
}

int ask_request_parse(struct json_object *parameters, AskRequest *ret, const char **ret_bad_field) {
        AskRequest r = {
                .timeout_usec = ASK_DEFAULT_TIMEOUT_USEC,
                .until_usec = UINT64_MAX,
                .push_cache = true,
                .echo = ASK_ECHO_MASKED,
        };

        assert(ret);
        assert(ret_bad_field);

        if (parameters) {
                json_object_object_foreach(parameters, key, v) {
                        int q;

                        if (streq(key, "message"))
                                q = parse_text(v, &r.message);
                        else if (streq(key, "keyname"))
                                q = parse_text(v, &r.keyname);
                        else if (streq(key, "icon"))
                                q = parse_text(v, &r.icon);
                        else if (streq(key, "id"))
                                q = parse_text(v, &r.id);
                        else if (streq(key, "timeoutUSec"))
                                q = parse_usec(v, &r.timeout_usec);
                        else if (streq(key, "untilUSec"))
                                q = parse_usec(v, &r.until_usec);
                        else if (streq(key, "acceptCached"))
                                q = parse_bool(v, &r.accept_cached);
                        else if (streq(key, "pushCache"))
                                q = parse_bool(v, &r.push_cache);
                        else if (streq(key, "echo"))
                                q = parse_echo(v, &r.echo);
                        else if (streq(key, "allowInteractiveAuthentication"))
                                q = parse_bool(v, &r.allow_interactive_authentication);
                        else
                                q = -EINVAL; /* e.g. "passwords": defined, but not an input */
                        if (q < 0) {
                                *ret_bad_field = key;
                                return -EINVAL;
                        }
                }
        }

        *ret = r;
        return 0;
}

uint64_t ask_request_deadline(const AskRequest *r, uint64_t now_usec) {
        uint64_t relative;

        assert(r);

        if (r->timeout_usec == 0 || r->until_usec == 0)
                return 0;
        relative = r->timeout_usec > UINT64_MAX - now_usec ? UINT64_MAX : now_usec + r->timeout_usec;
        return relative < r->until_usec ? relative : r->until_usec;
}
