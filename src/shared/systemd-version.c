/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The version of the systemd we run beside.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "macro.h"
#include "string-util.h"
#include "systemd-version.h"

static int parse_number(const char *s, const char **ret_end) {
        long v = 0;

        if (*s < '0' || *s > '9')
                return -EINVAL;
        for (; *s >= '0' && *s <= '9'; s++) {
                v = v * 10 + (*s - '0');
                if (v > 100000)
                        return -ERANGE;
        }
        if (ret_end)
                *ret_end = s;
        return v > 0 ? (int) v : -EINVAL;
}

int systemd_version_parse(const char *line) {
        const char *p = startswith(line, "systemd "), *end;
        int v;

        assert(line);

        if (!p)
                return -EINVAL;
        v = parse_number(p, &end);
        if (v < 0)
                return v;
        if (*end && *end != ' ' && *end != '\n' && *end != '~' && *end != '-' && *end != '.')
                return -EINVAL;
        return v;
}

/* The manager binary reports the version of the systemd that runs us, on the host and in the initrd. */
static int query_manager_binary(void) {
        static const char *const candidates[] = {
                "/usr/lib/systemd/systemd",
                "/lib/systemd/systemd",
        };

        for (size_t i = 0; i < ELEMENTSOF(candidates); i++) {
                _cleanup_free_ char *cmd = NULL;
                char line[256];
                FILE *f;
                int v = -EINVAL;

                if (access(candidates[i], X_OK) < 0)
                        continue;
                if (asprintf(&cmd, "%s --version 2>/dev/null", candidates[i]) < 0)
                        return -ENOMEM;
                f = popen(cmd, "re");
                if (!f)
                        return -errno;
                if (fgets(line, sizeof line, f))
                        v = systemd_version_parse(line);
                (void) pclose(f);
                if (v > 0)
                        return v;
        }
        return -ENOENT;
}

int systemd_version(void) {
        const char *e = getenv("URLBOOT_SYSTEMD_VERSION");
        const char *end;
        int v;

        if (e) {
                v = parse_number(e, &end);
                if (v < 0 || *end)
                        return -EINVAL;
                return v;
        }
        return query_manager_binary();
}
