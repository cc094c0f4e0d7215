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

struct json_object;

enum {
        VARLINK_DUPLICATE_IN_MESSAGE = 1,
        VARLINK_DUPLICATE_IN_PARAMETERS = 2,
        VARLINK_CALL_FLAGS_REPEATED = 4,        /* "oneway"/"more" came again, in an order sd-varlink takes */
};

/**
 * Look for a name given twice, in the message's object and in its "parameters" object.
 * @v text      a message's JSON text that json-c accepted (varlink_json_parse())
 * @ret_name    the name (allocated), when one is found
 * @ret         0 none, VARLINK_DUPLICATE_IN_MESSAGE, VARLINK_DUPLICATE_IN_PARAMETERS (either may have
 *              VARLINK_CALL_FLAGS_REPEATED or'ed in, then hand the message to varlink_call_fold_flags()),
 *              -ENOMEM, -EBADMSG
 */
int varlink_json_duplicate_member(const char *text, size_t len, char **ret_name);

/**
 * After VARLINK_CALL_FLAGS_REPEATED: json-c kept each flag's last value at its first place, so a false one
 * can stand after the true one that followed it in the text. The order was judged on the text already;
 * the false ones say nothing, and are dropped so that varlink_call_parse() sees what sd-varlink took.
 */
void varlink_call_fold_flags(struct json_object *msg);
