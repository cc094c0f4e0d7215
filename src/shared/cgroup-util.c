/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A process's control group.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup-util.h"
#include "fileio.h"
#include "macro.h"
#include "string-util.h"

#define PROC_CGROUP_MAX (64U * 1024U)

/* "ID:CONTROLLERS:PATH" → PATH when CONTROLLERS is what we look for. */
static const char *line_path(const char *line, size_t len, const char *controllers) {
        const char *a = memchr(line, ':', len), *b;

        if (!a)
                return NULL;
        b = memchr(a + 1, ':', (size_t) (line + len - a - 1));
        if (!b || (size_t) (b - a - 1) != strlen(controllers) || strncmp(a + 1, controllers, strlen(controllers)) != 0)
                return NULL;
        return b + 1;
}

static int find_path(const char *text, const char *controllers, char **ret) {
        for (const char *p = text; *p;) {
                size_t len = strcspn(p, "\n");
                const char *path = line_path(p, len, controllers);

                if (path && path < p + len && *path == '/') {
                        *ret = strndup(path, (size_t) (p + len - path));
                        return *ret ? 0 : -ENOMEM;
                }
                p += len;
                p += *p == '\n';
        }
        return -ENODATA;
}

int proc_cgroup_parse(const char *text, char **ret) {
        int r;

        assert(text);
        assert(ret);

        r = find_path(text, "name=systemd", ret);
        if (r != -ENODATA)
                return r;
        return find_path(text, "", ret);
}

int process_cgroup(pid_t pid, char **ret) {
        _cleanup_free_ char *text = NULL;
        char path[64];
        int r;

        assert(ret);

        (void) snprintf(path, sizeof(path), "/proc/%d/cgroup", (int) pid);
        r = read_full_file(path, PROC_CGROUP_MAX, &text, NULL);
        if (r == -ENOENT)
                return -ESRCH;
        if (r < 0)
                return r;
        return proc_cgroup_parse(text, ret);
}

bool cgroup_is_within(const char *path, const char *group) {
        size_t n;

        assert(path);
        assert(group);

        if (streq(group, "/"))
                return path[0] == '/';
        n = strlen(group);
        return strncmp(path, group, n) == 0 && (path[n] == 0 || path[n] == '/');
}
