/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The interfaces every systemd Varlink service implements.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "string-util.h"
#include "varlink-standard.h"

static const VarlinkSymbol get_info = {
        .type = VARLINK_METHOD,
        .comment = "Who serves here: vendor, product, version, URL and interfaces",
        .name = "GetInfo",
        .fields = (const VarlinkField[]) {
                VARLINK_OUTPUT_FIELD("Who made the service", "vendor", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("The program answering", "product", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("Its version", "version", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("Where to read more about it", "url", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("The interfaces it answers", "interfaces", VARLINK_STRING, VARLINK_ARRAY),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol get_interface_description = {
        .type = VARLINK_METHOD,
        .comment = "The definition of one of the interfaces, as Varlink IDL text",
        .name = "GetInterfaceDescription",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD("The interface to describe", "interface", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("Its definition, as Varlink IDL text", "description", VARLINK_STRING, 0),
                VARLINK_FIELDS_END,
        },
};

#define ERROR_WITH_ONE_STRING(sym, error_name, text, field, field_text) \
        static const VarlinkSymbol sym = {                              \
                .type = VARLINK_ERROR,                                  \
                .comment = text,                                        \
                .name = error_name,                                     \
                .fields = (const VarlinkField[]) {                      \
                        VARLINK_INPUT_FIELD(field_text, field, VARLINK_STRING, 0), \
                        VARLINK_FIELDS_END,                             \
                },                                                      \
        }

#define ERROR_WITHOUT_FIELDS(sym, error_name, text)                     \
        static const VarlinkSymbol sym = {                              \
                .type = VARLINK_ERROR,                                  \
                .comment = text,                                        \
                .name = error_name,                                     \
                .fields = (const VarlinkField[]) { VARLINK_FIELDS_END },                \
        }

ERROR_WITH_ONE_STRING(interface_not_found, "InterfaceNotFound",
                      "The call named an interface this service does not answer",
                      "interface", "The interface named");
ERROR_WITH_ONE_STRING(method_not_found, "MethodNotFound",
                      "The call named a method the interface does not have",
                      "method", "The method named");
ERROR_WITH_ONE_STRING(method_not_implemented, "MethodNotImplemented",
                      "The method exists but this service does not carry it out",
                      "method", "The method named");
ERROR_WITH_ONE_STRING(invalid_parameter, "InvalidParameter",
                      "A parameter is missing, unknown, or of the wrong type or value",
                      "parameter", "The parameter at fault");
ERROR_WITHOUT_FIELDS(permission_denied, "PermissionDenied", "The caller may not do this");
ERROR_WITHOUT_FIELDS(expected_more, "ExpectedMore",
                     "This method must be called with 'more' set");

const VarlinkInterface varlink_interface_org_varlink_service = {
        .name = "org.varlink.service",
        .comment = "What every Varlink service answers",
        .symbols = (const VarlinkSymbol *const[]) {
                &get_info,
                &get_interface_description,
                &interface_not_found,
                &method_not_found,
                &method_not_implemented,
                &invalid_parameter,
                &permission_denied,
                &expected_more,
                NULL,
        },
};

ERROR_WITHOUT_FIELDS(disconnected, "Disconnected",
                     "The connection ended (made up on this side, never sent)");
ERROR_WITHOUT_FIELDS(timed_out, "TimedOut",
                     "The call took too long (made up on this side, never sent)");
ERROR_WITHOUT_FIELDS(protocol, "Protocol", "The peer broke the protocol (made up on this side, never sent)");

static const VarlinkSymbol system_error = {
        .type = VARLINK_ERROR,
        .comment = "A Linux error number",
        .name = "System",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD("Where the number comes from: 'linux' for Linux's numbers", "origin", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Its name, such as ENOENT", "errnoName", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("The number (the name says more, when there is one)", "errno", VARLINK_INT, VARLINK_NULLABLE),
                VARLINK_FIELDS_END,
        },
};

const VarlinkInterface varlink_interface_io_systemd = {
        .name = "io.systemd",
        .symbols = (const VarlinkSymbol *const[]) {
                &disconnected,
                &timed_out,
                &protocol,
                &system_error,
                NULL,
        },
};

const char *varlink_errno_name(int error) {
        return strerrorname_np(abs(error));
}

int varlink_errno_from_name(const char *name) {
        assert(name);

        /* glibc names every errno below 134 (EHWPOISON is 133). */
        for (int e = 1; e < 200; e++) {
                const char *n = strerrorname_np(e);

                if (n && streq(n, name))
                        return e;
        }
        return -EINVAL;
}
