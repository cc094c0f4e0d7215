/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: URL helpers and image-name derivation. Input: URL, optionally "\n" and a name. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "image-name.h"
#include "macro.h"
#include "url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_free_ char *input = NULL;
        const char *name = "x.raw";
        char *nl, *s;

        input = strndup((const char *) data, size);
        if (!input)
                return 0;
        nl = strchr(input, '\n');
        if (nl) {
                *nl = 0;
                name = nl + 1;
        }

        (void) url_is_http(input);
        (void) url_is_file(input);
        if (url_last_component(input, &s) >= 0) {
                /* A component is never empty and never contains "/", "?" or "#". */
                if (!*s || strpbrk(s, "/?#"))
                        abort();
                free(s);
        }
        if (url_host_header(input, &s) >= 0) {
                /* The header is a non-empty piece of the URL with nothing that could split a request
                 * (CR, LF, space, controls) or leave the authority (user information, path, query). */
                if (!*s || !strstr(input, s) || strpbrk(s, "/?#@"))
                        abort();
                for (const char *c = s; *c; c++)
                        if ((unsigned char) *c <= ' ' || (unsigned char) *c >= 0x7f)
                                abort();
                free(s);
        }
        for (unsigned n = 0; n < 3; n++)
                if (url_change_suffix(input, n, name, &s) >= 0) {
                        if (strlen(s) > strlen(input) + strlen(name) + 1)
                                abort();
                        free(s);
                }
        if (image_name_from_url(input, size % 2, &s) >= 0) {
                if (!image_name_is_valid(s))
                        abort();
                free(s);
        }
        if (raw_strip_suffixes(name, &s) >= 0)
                free(s);
        if (tar_strip_suffixes(name, &s) >= 0)
                free(s);
        return 0;
}
