/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Local names of downloaded images.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "image-name.h"
#include "macro.h"
#include "path-util.h"
#include "string-util.h"
#include "url.h"
#include "utf16.h"

bool image_name_is_valid(const char *s) {
        /* A leading '-' would read as an option wherever the name is an argument (urlboot-pull NAME). */
        return filename_is_valid(s) && utf8_is_valid(s, strlen(s)) && !string_has_cc(s) && !startswith(s, ".#") &&
               s[0] != '-';
}

int raw_strip_suffixes(const char *name, char **ret) {
        static const char *const suffixes[] = {
                ".xz", ".gz", ".bz2", ".zst", ".sysext.raw", ".confext.raw", ".raw", ".qcow2", ".img", ".bin",
        };
        char *n = strdup(name);
        bool changed;

        assert(name);
        assert(ret);

        if (!n)
                return -ENOMEM;

        /* Each pass tries every suffix in order against the name as it is at that moment. */
        do {
                changed = false;
                for (size_t i = 0; i < ELEMENTSOF(suffixes); i++) {
                        char *e = endswith(n, suffixes[i]);
                        if (e) {
                                *e = 0;
                                changed = true;
                        }
                }
        } while (changed);

        *ret = n;
        return 0;
}

int tar_strip_suffixes(const char *name, char **ret) {
        static const char *const suffixes[] = {
                ".tar", ".tar.xz", ".tar.gz", ".tar.bz2", ".tar.zst", ".tgz",
        };
        size_t len = strlen(name);
        char *n;

        assert(name);
        assert(ret);

        for (size_t i = 0; i < ELEMENTSOF(suffixes); i++) {
                const char *e = endswith(name, suffixes[i]);
                if (e) {
                        len = (size_t) (e - name);
                        break;
                }
        }
        if (len == 0)
                return -EINVAL;

        n = strndup(name, len);
        if (!n)
                return -ENOMEM;
        *ret = n;
        return 0;
}

int image_name_from_url(const char *url, bool tar, char **ret) {
        _cleanup_free_ char *last = NULL, *name = NULL;
        int r;

        assert(url);
        assert(ret);

        r = url_last_component(url, &last);
        if (r < 0)
                return r;

        r = tar ? tar_strip_suffixes(last, &name) : raw_strip_suffixes(last, &name);
        if (r < 0)
                return r;
        if (!image_name_is_valid(name))
                return -EINVAL;

        *ret = TAKE_PTR(name);
        return 0;
}
