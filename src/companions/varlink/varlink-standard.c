/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The interfaces every systemd Varlink service implements.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "string-util.h"
#include "varlink-standard.h"

static const VarlinkSymbol get_info = {
        .type = VARLINK_METHOD,
        .comment = "Get service meta information",
        .name = "GetInfo",
        .fields = (const VarlinkField[]) {
                VARLINK_OUTPUT_FIELD("String identifying the vendor of this service", "vendor", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("String identifying the product implementing this service", "product", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("Version string of this product", "version", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("Web URL pointing to additional information about this service", "url", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("List of interfaces implemented by this service", "interfaces", VARLINK_STRING, VARLINK_ARRAY),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol get_interface_description = {
        .type = VARLINK_METHOD,
        .comment = "Get description of an implemented interface in Varlink IDL format",
        .name = "GetInterfaceDescription",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD("Name of interface to query interface description of", "interface", VARLINK_STRING, 0),
                VARLINK_OUTPUT_FIELD("Interface description in Varlink IDL format", "description", VARLINK_STRING, 0),
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
                      "Error returned if a method is called on an unknown interface",
                      "interface", "Name of interface that was called but does not exist");
ERROR_WITH_ONE_STRING(method_not_found, "MethodNotFound",
                      "Error returned if an unknown method is called on an known interface",
                      "method", "Name of method that was called but does not exist");
ERROR_WITH_ONE_STRING(method_not_implemented, "MethodNotImplemented",
                      "Error returned if a method is called that is known but not implemented",
                      "method", "Name of method that was called but is not implemented");
ERROR_WITH_ONE_STRING(invalid_parameter, "InvalidParameter",
                      "Error returned if a method is called with an invalid parameter",
                      "parameter", "Name of the invalid parameter");
ERROR_WITHOUT_FIELDS(permission_denied, "PermissionDenied", "General permission error");
ERROR_WITHOUT_FIELDS(expected_more, "ExpectedMore",
                     "A method was called with the 'more' flag off, but it may only be called with the flag turned on");

const VarlinkInterface varlink_interface_org_varlink_service = {
        .name = "org.varlink.service",
        .comment = "General Varlink service interface",
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
                     "Local error if a Varlink connection is disconnected (this never crosses the wire and is synthesized locally only).");
ERROR_WITHOUT_FIELDS(timed_out, "TimedOut",
                     "A method call time-out has been reached (also synthesized locally, does not cross wire)");
ERROR_WITHOUT_FIELDS(protocol, "Protocol", "Some form of protocol error (also synthesized locally, does not cross wire)");

static const VarlinkSymbol system_error = {
        .type = VARLINK_ERROR,
        .comment = "A generic Linux system error (\"errno\"s).",
        .name = "System",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD("The origin of this system error, typically 'linux' to indicate Linux error numbers.", "origin", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("The Linux error name, i.e. ENOENT, EHWPOISON or similar.", "errnoName", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("The numeric Linux error number. Typically the name is preferable, if specified.", "errno", VARLINK_INT, VARLINK_NULLABLE),
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
        /* glibc names every errno below 134 (EHWPOISON is 133). */
        for (int e = 1; e < 200; e++) {
                const char *n = strerrorname_np(e);

                if (n && streq(n, name))
                        return e;
        }
        return -EINVAL;
}
