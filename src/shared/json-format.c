/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * --json=pretty|short|off (json-format.h).
 */
#include <assert.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>

#include "json-format.h"
#include "string-util.h"

int json_format_parse(const char *arg, JsonFormat *ret) {
        assert(ret);

        if (!arg || streq(arg, "short"))
                *ret = JSON_FORMAT_SHORT;
        else if (streq(arg, "pretty"))
                *ret = JSON_FORMAT_PRETTY;
        else if (streq(arg, "off"))
                *ret = JSON_FORMAT_OFF;
        else
                return -EINVAL;
        return 0;
}

int json_capture_begin(JsonCapture *c, JsonFormat format) {
        FILE *m;

        assert(c);

        *c = (JsonCapture) { .format = format };
        if (format != JSON_FORMAT_PRETTY)
                return 0;
        m = open_memstream(&c->text, &c->size);
        if (!m)
                return -ENOMEM;
        fflush(stdout);
        /* glibc's stdout is a variable: the printers write where it points */
        c->saved = stdout;
        stdout = m;
        return 0;
}

int json_capture_end(JsonCapture *c) {
        struct json_object *o;
        int r = 0;

        assert(c);

        if (!c->saved)
                return 0;
        fclose(stdout);
        stdout = c->saved;
        c->saved = NULL;
        o = c->text ? json_tokener_parse(c->text) : NULL;
        if (o) {
                puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE));
                json_object_put(o);
        } else {
                fputs(c->text ?: "", stdout);
                r = -EBADMSG;
        }
        free(c->text);
        c->text = NULL;
        return r;
}
