/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA256SUMS files.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "checksums.h"
#include "import-types.h"

int checksums_find(const char *text, size_t size, const char *name, char ret_hex[65]) {
        size_t name_len = strlen(name);
        const char *p = text, *end = text + size;

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t) (end - p));
                const char *n;
                size_t len;

                if (!nl)
                        break;
                len = (size_t) (nl - p);

                /* 64 hex digits, then one of "  ", " *" or " " before the name */
                if (len > 65) {
                        n = p + 64;
                        if (n[0] == ' ' && (n[1] == ' ' || n[1] == '*'))
                                n += 2;
                        else if (n[0] == ' ')
                                n += 1;
                        else
                                n = NULL;

                        if (n && (size_t) (nl - n) == name_len && memcmp(n, name, name_len) == 0) {
                                char hex[65];
                                memcpy(hex, p, 64);
                                hex[64] = 0;
                                if (!sha256_hex_is_valid(hex))
                                        return -EBADMSG;
                                for (int i = 0; i < 64; i++)
                                        ret_hex[i] = (char) tolower((unsigned char) hex[i]);
                                ret_hex[64] = 0;
                                return 0;
                        }
                }
                p = nl + 1;
        }
        return -ENOENT;
}
