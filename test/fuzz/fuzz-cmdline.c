/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the kernel command line splitter and rd. filtering. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proc-cmdline.h"
#include "string-util.h"

static int count_key(const char *key, const char *value, void *userdata) {
        size_t *n = userdata;

        /* Touch both strings so the sanitizers see any overrun. */
        *n += strlen(key) + (value ? strlen(value) : 0);
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_free_ char *line = NULL;
        _cleanup_strv_free_ char **words = NULL;
        size_t n = 0;

        line = strndup((const char *) data, size);
        if (!line)
                return 0;

        if (cmdline_split(line, &words) < 0)
                return 0;
        /* A word never outgrows the line it came from. */
        STRV_FOREACH(w, words)
                if (strlen(*w) > size)
                        abort();

        setenv("SYSTEMD_IN_INITRD", size % 2 ? "1" : "0", 1);
        (void) proc_cmdline_parse_given(line, count_key, &n, PROC_CMDLINE_STRIP_RD_PREFIX | PROC_CMDLINE_RD_STRICT);
        (void) proc_cmdline_parse_given(line, count_key, &n, 0);
        return 0;
}
