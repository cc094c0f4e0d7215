/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loop device references.
 */
#include <string.h>

#include "loop-ref.h"
#include "string-util.h"
#include "utf16.h"

bool loop_ref_is_valid(const char *s) {
        size_t n = s ? strlen(s) : 0;

        return n > 0 && n <= LOOP_REF_MAX && utf8_is_valid(s, n) && !string_has_cc(s);
}
