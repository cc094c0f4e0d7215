/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The io.systemd.AskPassword Varlink interface: the same names, types, order and errors as systemd
 * v258's, so every client of v258 works unchanged; the comments (the documentation introspection
 * shows) are our own words.
 */
#include "ask-password-interface.h"

static const VarlinkSymbol echo_mode = {
        .type = VARLINK_ENUM_TYPE,
        .comment = "How the characters of a password are shown while it is typed",
        .name = "EchoMode",
        .fields = (const VarlinkField[]) {
                VARLINK_ENUM_VALUE_DEF("Nothing is shown", "off"),
                VARLINK_ENUM_VALUE_DEF("The characters are shown as typed", "on"),
                VARLINK_ENUM_VALUE_DEF("A placeholder is shown for each character", "masked"),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol ask = {
        .type = VARLINK_METHOD,
        .comment = "Get a password: from the kernel keyring cache, or by asking the user through a password agent",
        .name = "Ask",
        .fields = (const VarlinkField[]) {
                VARLINK_INPUT_FIELD("Text the agent shows with the question", "message", VARLINK_STRING,
                                    VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Name of the kernel keyring entry that caches the password", "keyname", VARLINK_STRING,
                                    VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Icon for graphical agents (a freedesktop.org icon name)",
                                    "icon", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Identifier of the question, for agents and logs", "id", VARLINK_STRING, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("How long to wait for an answer, in µs from now (CLOCK_MONOTONIC): 0 looks in the "
                                    "cache only, UINT64_MAX waits without limit, unset waits 90 s",
                                    "timeoutUSec", VARLINK_INT, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Until when to wait for an answer, in µs of CLOCK_MONOTONIC (the earlier of this and "
                                    "timeoutUSec counts): 0 looks in the cache only, unset or UINT64_MAX sets no limit",
                                    "untilUSec", VARLINK_INT, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Answer from the keyring cache when it holds the password", "acceptCached",
                                    VARLINK_BOOL, VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Put the password the user gave into the keyring cache", "pushCache",
                                    VARLINK_BOOL, VARLINK_NULLABLE),
                VARLINK_INPUT_ENUM_FIELD("How typed characters are shown", "echo",
                                         "EchoMode", VARLINK_NULLABLE),
                VARLINK_INPUT_FIELD("Allow polkit to ask the caller to authenticate (default: no)",
                                    "allowInteractiveAuthentication", VARLINK_BOOL, VARLINK_NULLABLE),
                VARLINK_OUTPUT_FIELD("The passwords: usually one, several when the cache holds several",
                                     "passwords", VARLINK_STRING, VARLINK_ARRAY),
                VARLINK_FIELDS_END,
        },
};

static const VarlinkSymbol no_password_available = {
        .type = VARLINK_ERROR,
        .comment = "The cache has no password and no agent was to be asked",
        .name = "NoPasswordAvailable",
        .fields = (const VarlinkField[]) { VARLINK_FIELDS_END },
};

static const VarlinkSymbol timeout_reached = {
        .type = VARLINK_ERROR,
        .comment = "No answer came before the time limit",
        .name = "TimeoutReached",
        .fields = (const VarlinkField[]) { VARLINK_FIELDS_END },
};

const VarlinkInterface ask_password_interface = {
        .name = "io.systemd.AskPassword",
        .comment = "Asking the user, or the keyring cache, for a password",
        .symbols = (const VarlinkSymbol *const[]) {
                &echo_mode,
                &ask,
                &no_password_available,
                &timeout_reached,
                NULL,
        },
};
