/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The lazy disk's unit, kept for the real root's systemd.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "keep-unit.h"
#include "macro.h"
#include "string-util.h"
#include "generator.h"

bool lazy_keep_unit_name_valid(const char *unit) {
        size_t n = unit ? strlen(unit) : 0;

        if (n <= STRLEN(".service") || n > 255 || !endswith(unit, ".service") || unit[0] == '.')
                return false;
        for (const char *c = unit; *c; c++)
                if (*c <= ' ' || *c >= 0x7f || *c == '/')
                        return false;
        return true;
}

int lazy_keep_unit_at(int dir_fd, const char *unit, const char *url) {
        _cleanup_free_ char *description = unit_text_escape(url), *text = NULL;
        int n;

        assert(url);

        if (!lazy_keep_unit_name_valid(unit))
                return -EINVAL;
        if (!description)
                return -ENOMEM;
        n = asprintf(&text,
                     "# Written by urlboot-lazy: the copy of this disk may go on past the switch to the real root,\n"
                     "# whose systemd must keep this unit running (urlboot-lazy(8)).\n"
                     "[Unit]\n"
                     "Description=Lazy Attach of %s\n"
                     "Documentation=man:urlboot-lazy(8)\n"
                     "DefaultDependencies=no\n"
                     "IgnoreOnIsolate=yes\n"
                     "RefuseManualStop=yes\n"
                     "\n"
                     "[Service]\n"
                     "Type=notify\n"
                     "NotifyAccess=main\n"
                     "RemainAfterExit=yes\n"
                     "ExecStart=" URLBOOT_LAZY_PATH " attach\n",
                     description);
        if (n < 0)
                return -ENOMEM;
        return write_file_atomic_at(dir_fd, unit, text, (size_t) n, 0644);
}
