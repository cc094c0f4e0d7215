/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * --json=pretty|short|off (json-format.h). json-c is loaded only for "pretty": the commands of the initrd
 * (urlboot-pull, -loop, -lazy) do not need it there, and where it is missing pretty prints short.
 */
#include <assert.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>

#include "dlopen-util.h"
#include "exit-status.h"
#include "json-format.h"
#include "log.h"
#include "macro.h"
#include "string-util.h"

static DLSYM_DEFINE(json_tokener_parse);
static DLSYM_DEFINE(json_object_to_json_string_ext);
static DLSYM_DEFINE(json_object_put);

static int json_c_load(void) {
        static const DlSymbol symbols[] = {
                DLSYM_ENTRY(json_tokener_parse),
                DLSYM_ENTRY(json_object_to_json_string_ext),
                DLSYM_ENTRY(json_object_put),
        };
        static DlOnce once;
        const char *error;
        int r = dlopen_symbols(&once, "libjson-c.so.5", symbols, ELEMENTSOF(symbols), &error);

        if (r < 0)
                log_notice("--json=pretty prints short JSON: %s (package libjson-c5).", error);
        return r;
}

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

int json_format_option(const char *arg, JsonFormat *ret) {
        if (json_format_parse(arg, ret) < 0)
                return log_usage_error("--json=%s: use pretty, short or off.", arg);
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
        o = c->text && json_c_load() >= 0 ? sym_json_tokener_parse(c->text) : NULL;
        if (o) {
                puts(sym_json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                           JSON_C_TO_STRING_NOSLASHESCAPE));
                sym_json_object_put(o);
        } else {
                fputs(c->text ?: "", stdout);
                r = c->text && sym_json_tokener_parse ? -EBADMSG : 0;
        }
        free(c->text);
        c->text = NULL;
        return r;
}
