/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: SHA256SUMS files from a server. The input is "NAME\n" then the file. Oracle: a digest
 * found is 64 lowercase hex digits that occur (in either case) in the file, on a line that names NAME;
 * a file that lists NAME on a well-formed line of its own is never "not listed". */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "checksums.h"
#include "fuzz.h"

/* Whether text has a line, CR removed, equal to HEX + two spaces + name; *ret_at is where it starts. */
static bool has_gnu_line(const char *text, size_t size, const char *name, char hex[65], size_t *ret_at) {
        for (const char *p = text, *end = text + size; p < end;) {
                const char *nl = memchr(p, '\n', (size_t) (end - p)), *e = nl ?: end;
                size_t n = (size_t) (e - p) - (e > p && e[-1] == '\r'), nl_name = strlen(name);

                if (n == 64 + 2 + nl_name && p[64] == ' ' && p[65] == ' ' && memcmp(p + 66, name, nl_name) == 0 &&
                    strspn(p, "0123456789abcdef") >= 64) {
                        memcpy(hex, p, 64);
                        hex[64] = 0;
                        *ret_at = (size_t) (p - text);
                        return true;
                }
                p = nl ? nl + 1 : end;
        }
        return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *d = (const char *) data, *nl = memchr(d, '\n', size);
        char name[256], found[65], listed[65];
        size_t n, at;
        int r;

        if (!nl || (n = (size_t) (nl - d)) == 0 || n >= sizeof name || memchr(d, 0, n))
                return 0;
        memcpy(name, d, n);
        name[n] = 0;
        d = nl + 1;
        size -= n + 1;

        r = checksums_find(d, size, name, found);
        if (r == 0) {
                char *copy = strndup(d, size);

                if (strlen(found) != 64 || strspn(found, "0123456789abcdef") != 64 || !copy)
                        abort();
                /* The digest came from the file (the file may spell it in capitals). */
                for (char *c = copy; *c; c++)
                        if (*c >= 'A' && *c <= 'F')
                                *c += 'a' - 'A';
                if (!memmem(copy, strlen(copy), found, 64) && memchr(d, 0, size) == NULL)
                        abort();
                free(copy);
        } else if (r != -ENOENT && r != -EBADMSG)
                abort();
        /* A plain "HEX  NAME" line is always found. An earlier line for NAME may win: its digest then, or
         * -EBADMSG if that one is malformed (the first line naming the file decides: fail closed). */
        if (has_gnu_line(d, size, name, listed, &at) && r != 0 && !(r == -EBADMSG && memmem(d, at, name, n)))
                abort();
        return 0;
}
