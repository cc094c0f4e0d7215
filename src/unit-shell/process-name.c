/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Naming a forked child.
 */
#include <assert.h>
#include <string.h>
#include <sys/prctl.h>

#include "process-name.h"

static char *cmdline_start;
static size_t cmdline_size;

void process_name_init(char **argv) {
        char *end;

        if (!argv || !argv[0])
                return;
        /* The kernel lays the arguments out one after the other: the area ends after the last one. */
        end = argv[0] + strlen(argv[0]) + 1;
        for (char **a = argv + 1; *a && *a == end; a++)
                end = *a + strlen(*a) + 1;
        cmdline_start = argv[0];
        cmdline_size = (size_t) (end - argv[0]);
}

void process_name_set(const char *name) {
        assert(name);

        (void) prctl(PR_SET_NAME, name, 0, 0, 0);

        if (!cmdline_start || cmdline_size == 0)
                return;
        /* Clear all of it: ps shows the area up to the last non-NUL byte. */
        memset(cmdline_start, 0, cmdline_size);
        memcpy(cmdline_start, name, strnlen(name, cmdline_size - 1));
}
