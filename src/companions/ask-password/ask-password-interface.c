/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The io.systemd.AskPassword Varlink interface. The comments are part of the interface text
 * clients see; they are the ones systemd serves, so introspection reads the same on 252.
 */
#include "ask-password-interface.h"

static const VarlinkSymbol echo_mode = {
        .type = VARLINK_ENUM_TYPE,
        .comment = "Encodes whether to provide visual feedback as the password is typed in",
        .name = "EchoMode",
        .fields = (const VarlinkField[]) {
                VARLINK_ENUM_VALUE_DEF("Request that the password is prompted for without any visual feedback", "off"),
                VARLINK_ENUM_VALUE_DEF("Show the password in plaintext as it is typed in", "on"),
                VARLINK_ENUM_VALUE_DEF("Provide visual feedback as the password is typed, but mask the password plaintext",
                                       "masked"),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol ask = {
        .type = VARLINK_METHOD,
        .comment = "Interactively ask the user for a password, or answer from a previously cached entry",
        .name = "Ask",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD("The message to show when prompting for the password", "message", VARLINK_STRING,
                                    VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("The name for the kernel keyring entry used for caching", "keyname", VARLINK_STRING,
                                    VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("The icon name to display, following the freedesktop.org icon naming specification",
                                    "icon", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("An recognizable id for the password prompt", "id", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Timeout in µs (relative, CLOCK_MONOTONIC; set to zero to only check cache and not "
                                    "query interactively; set to UINT64_MAX to disable relative timeout; if not set "
                                    "defaults to 90s)",
                                    "timeoutUSec", VARLINK_INT, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Timeout in µs (absolute, CLOCK_MONOTONIC; if both timeoutUSec and untilUSec are "
                                    "specified the earlier of the two is used; set to zero to only check cache and not "
                                    "query interactively; leave unset or set to UINT64_MAX to disable absolute timeout)",
                                    "untilUSec", VARLINK_INT, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Whether to accept cached passwords from the kernel keyring", "acceptCached",
                                    VARLINK_BOOL, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Whether to push acquired passwords into the kernel keyring", "pushCache",
                                    VARLINK_BOOL, VARLINK_NULLABLE),
                VARLINK_INPUT_ENUM_FIELD("Whether to give visual feedback when typing in the password", "echo",
                                         "EchoMode", VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Controls whether interactive authentication (via polkit) shall be allowed. If "
                                    "unspecified defaults to false.",
                                    "allowInteractiveAuthentication", VARLINK_BOOL, VARLINK_NULLABLE),
                VARLINK_OUTPUT_FIELD("List of acquired passwords. This typically contains one entry, but might contain "
                                     "more in case multiple passwords were previously cached.",
                                     "passwords", VARLINK_STRING, VARLINK_ARRAY),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol no_password_available = {
        .type = VARLINK_ERROR,
        .comment = "No password available, because none was provided in the cache, and no agent was asked",
        .name = "NoPasswordAvailable",
        .fields = (const VarlinkField[]) { VARLINK_FIELDS_END },
};

static const VarlinkSymbol timeout_reached = {
        .type = VARLINK_ERROR,
        .comment = "Query timeout reached, user did not provide a password in time",
        .name = "TimeoutReached",
        .fields = (const VarlinkField[]) { VARLINK_FIELDS_END },
};

const VarlinkInterface ask_password_interface = {
        .name = "io.systemd.AskPassword",
        .comment = "An interface for interactively asking the user for a password",
        .symbols = (const VarlinkSymbol *const[]) {
                &echo_mode,
                &ask,
                &no_password_available,
                &timeout_reached,
                NULL,
        },
};
