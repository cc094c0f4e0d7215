/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UTF-8 <-> CHAR16 for the firmware's interfaces.
 */
#include "assert-fundamental.h"
#include "efi-string.h"
#include "memory-fundamental.h"
#include "utf16.h"

CHAR16 *utf8_to_char16(const char *s, size_t len) {
        void *u = NULL;
        size_t size;

        fassert(s || len == 0);

        if (utf8_to_utf16le(s, len, &u, &size) < 0)
                return NULL;
        return u;
}

char *char16_to_utf8(const CHAR16 *s, size_t len) {
        char *u = NULL;

        fassert(s || len == 0);

        if (utf16le_to_utf8(s, len * 2, &u) < 0)
                return NULL;
        return u;
}
