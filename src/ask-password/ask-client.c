/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The client side of urlboot-ask-password.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ask-client.h"
#include "ask-password-interface.h"
#include "json-writer.h"
#include "log.h"
#include "string-util.h"
#include "varlink-client.h"
#include "varlink-json.h"
#include "varlink-standard.h"

static struct json_object *build_parameters(const AskClientOptions *o) {
        static const char *const echo_names[] = {
                [ASK_ECHO_OFF] = "off",
                [ASK_ECHO_ON] = "on",
                [ASK_ECHO_MASKED] = "masked",
        };
        struct json_object *p = json_object_new_object();

        if (!p)
                return NULL;
        if (o->message)
                json_object_object_add(p, "message", json_object_new_string(o->message));
        if (o->keyname)
                json_object_object_add(p, "keyname", json_object_new_string(o->keyname));
        if (o->icon)
                json_object_object_add(p, "icon", json_object_new_string(o->icon));
        if (o->id)
                json_object_object_add(p, "id", json_object_new_string(o->id));
        json_object_object_add(p, "timeoutUSec", json_object_new_uint64(o->timeout_usec));
        json_object_object_add(p, "acceptCached", json_object_new_boolean(o->accept_cached));
        json_object_object_add(p, "pushCache", json_object_new_boolean(o->push_cache));
        json_object_object_add(p, "echo", json_object_new_string(echo_names[o->echo]));
        json_object_object_add(p, "allowInteractiveAuthentication", json_object_new_boolean(o->interactive));
        return p;
}

/* One line for each error a caller can meet, saying what to do. */
static void log_reply_error(const AskClientOptions *o, const VarlinkReply *r) {
        struct json_object *v = NULL;

        if (streq(r->error, ASK_PASSWORD_ERROR_NO_PASSWORD))
                log_error("No password available: none is cached%s.",
                          o->timeout_usec == 0 ? " and --cache-only forbids asking" : "");
        else if (streq(r->error, ASK_PASSWORD_ERROR_TIMEOUT))
                log_error("No password was entered in time (raise --timeout=).");
        else if (streq(r->error, VARLINK_ERROR_PERMISSION_DENIED))
                log_error("%s refused the question: permission denied (polkit action io.systemd.ask-password.ask).",
                          o->address);
        else if (streq(r->error, VARLINK_ERROR_INTERACTIVE_AUTHENTICATION_REQUIRED))
                log_error("%s needs polkit authentication first; allow it with --interactive.", o->address);
        else if (streq(r->error, VARLINK_ERROR_SYSTEM) && r->parameters &&
                 json_object_object_get_ex(r->parameters, "errno", &v)) {
                int e = json_object_get_int(v);

                if (e == ECANCELED)
                        log_error("The password query was cancelled.");
                else
                        log_error_errno(e, "The password service failed: %m");
        } else if (streq(r->error, VARLINK_ERROR_INVALID_PARAMETER) && r->parameters &&
                   json_object_object_get_ex(r->parameters, "parameter", &v))
                log_error("The service refused the parameter '%s' (control characters, quotes and backslashes "
                          "are not allowed in texts).",
                          json_object_get_string(v));
        else
                log_error("The password service answered %s.", r->error);
}

static void print_passwords(const AskClientOptions *o, struct json_object *list) {
        size_t n = json_object_array_length(list);

        if (o->json) {
                fputs("{\"passwords\":[", stdout);
                for (size_t i = 0; i < n; i++) {
                        if (i > 0)
                                putchar(',');
                        json_write_string(stdout, json_object_get_string(json_object_array_get_idx(list, i)));
                }
                puts("]}");
        } else if (!o->no_output)
                for (size_t i = 0; i < n && (i == 0 || o->multiple); i++) {
                        fputs(json_object_get_string(json_object_array_get_idx(list, i)), stdout);
                        if (o->newline)
                                putchar('\n');
                }
        fflush(stdout);
}

int ask_client_run(const AskClientOptions *o) {
        _cleanup_json_ struct json_object *p = build_parameters(o);
        VarlinkClient c;
        VarlinkReply reply;
        struct json_object *list = NULL;
        int r;

        assert(o);

        if (!p)
                return log_oom(), EXIT_FAILURE;

        r = varlink_client_connect(&c, o->address);
        if (r < 0) {
                log_error_errno(r, "Failed to connect to %s: %m (is urlboot-ask-password.socket active?)", o->address);
                return EXIT_FAILURE;
        }
        r = varlink_client_call(&c, "io.systemd.AskPassword.Ask", p, VARLINK_INFINITY, &reply);
        if (r < 0) {
                log_error_errno(r, "The call to %s failed: %m", o->address);
                varlink_client_done(&c);
                return EXIT_FAILURE;
        }
        if (reply.error) {
                if (o->json) {
                        _cleanup_free_ char *text = varlink_reply_format(reply.error, reply.parameters, false);

                        if (text)
                                puts(text);
                }
                log_reply_error(o, &reply);
                varlink_client_done(&c);
                return EXIT_FAILURE;
        }
        if (!reply.parameters || !json_object_object_get_ex(reply.parameters, "passwords", &list) ||
            !json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0) {
                log_error("%s answered without passwords.", o->address);
                varlink_client_done(&c);
                return EXIT_FAILURE;
        }
        for (size_t i = 0; i < json_object_array_length(list); i++)
                if (!json_object_is_type(json_object_array_get_idx(list, i), json_type_string)) {
                        log_error("%s answered with a password that is not a string.", o->address);
                        varlink_client_done(&c);
                        return EXIT_FAILURE;
                }

        print_passwords(o, list);
        varlink_client_done(&c); /* wipes the reply */
        return EXIT_SUCCESS;
}
