/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Member names given twice in a message. json-c keeps the last value of a name that occurs twice in an
 * object; sd-varlink (systemd 262) refuses the message: a name twice among the message's own members
 * ("method" twice) is a protocol error that ends the connection, one twice in "parameters" is answered
 * with org.varlink.service.InvalidParameter naming it (its own GetInterfaceDescription answers a repeated
 * "interface" with ENOTUNIQ), and the connection goes on. "oneway" and "more" may come again while the
 * ones before were false: sd-varlink takes them in order and refuses only one after a true one.
 */
#pragma once

#include <stddef.h>

enum {
        VARLINK_DUPLICATE_IN_MESSAGE = 1,
        VARLINK_DUPLICATE_IN_PARAMETERS = 2,
};

/**
 * Look for a name given twice, in the message's object and in its "parameters" object.
 * @v text      a message's JSON text that json-c accepted (varlink_json_parse())
 * @ret_name    the name (allocated), when one is found
 * @ret         0 none, VARLINK_DUPLICATE_IN_MESSAGE, VARLINK_DUPLICATE_IN_PARAMETERS, -ENOMEM, -EBADMSG
 */
int varlink_json_duplicate_member(const char *text, size_t len, char **ret_name);
