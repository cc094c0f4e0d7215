/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Encoding a string for use in a /dev symlink name.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "udev-encode.h"
#include "utf16.h"

static int is_allowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("#+-.:=@_", c);
}

char *udev_encode_string(const char *s) {
        size_t len = strlen(s);
        char *e = malloc(len * 4 + 1), *t = e;

        assert(s);

        if (!e)
                return NULL;
        for (size_t i = 0; i < len;) {
                uint32_t cp;
                int k = (unsigned char) s[i] >= 0x80 ? utf8_decode(s + i, len - i, &cp) : 0;

                if (k > 1) {
                        memcpy(t, s + i, (size_t) k);
                        t += k;
                        i += (size_t) k;
                } else if (s[i] && is_allowed(s[i])) {
                        *t++ = s[i++];
                } else {
                        t += sprintf(t, "\\x%02x", (unsigned char) s[i++]);
                }
        }
        *t = 0;
        return e;
}
