/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for unit-name escaping, compared with the real systemd-escape for every path in test/data. */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "string-util.h"
#include "tests.h"
#include "unit-name.h"

/* Runs systemd-escape [--path] -- ARG; returns its exit status and first output line. */
static int systemd_escape(bool path, const char *arg, char *out, size_t size) {
        int pipefd[2], status;
        pid_t pid;
        ssize_t n;
        size_t len = 0;

        if (pipe(pipefd) < 0)
                test_fail(__FILE__, __LINE__, "pipe: %s", strerror(errno));
        pid = fork();
        if (pid == 0) {
                dup2(pipefd[1], STDOUT_FILENO);
                close(pipefd[0]);
                if (!freopen("/dev/null", "w", stderr))
                        _exit(127);
                if (path)
                        execlp("systemd-escape", "systemd-escape", "--path", "--", arg, (char *) NULL);
                else
                        execlp("systemd-escape", "systemd-escape", "--", arg, (char *) NULL);
                _exit(127);
        }
        close(pipefd[1]);
        while (len + 1 < size && (n = read(pipefd[0], out + len, size - 1 - len)) > 0)
                len += (size_t) n;
        close(pipefd[0]);
        out[len] = 0;
        out[strcspn(out, "\n")] = 0;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

struct counts {
        bool path;
        int n;
};

static void compare_line(char *line, int lineno, void *userdata) {
        struct counts *c = userdata;
        const char *arg = streq(line, "(empty)") ? "" : line;
        _cleanup_free_ char *ours = NULL;
        char theirs[4096];
        int status, r;

        status = systemd_escape(c->path, arg, theirs, sizeof theirs);
        if (status == 127)
                test_fail(__FILE__, __LINE__, "systemd-escape is not installed");
        r = c->path ? unit_name_path_escape(arg, &ours) : unit_name_escape(arg, &ours);

        if ((status == 0) != (r >= 0))
                test_fail(__FILE__, __LINE__, "line %d: \"%s\": systemd-escape status %d, ours %d", lineno, arg, status,
                          r);
        if (r >= 0 && !streq(ours, theirs))
                test_fail(__FILE__, __LINE__, "line %d: \"%s\": ours \"%s\", systemd-escape \"%s\"", lineno, arg, ours,
                          theirs);

        /* What escapes must come back unchanged (modulo simplification, which the test data avoids mostly). */
        if (r >= 0 && !c->path) {
                _cleanup_free_ char *back = NULL;
                ASSERT_OK(unit_name_unescape(ours, &back));
                /* "/" becomes "-" and back to "/", so only compare strings without slashes. */
                if (!strchr(arg, '/'))
                        ASSERT_STREQ(back, arg);
        }
        c->n++;
}

TEST(path_escape_matches_systemd) {
        struct counts c = { .path = true };

        test_foreach_line("escape-paths.txt", compare_line, &c);
        test_note("%d paths compared with systemd-escape --path", c.n);
        ASSERT_TRUE(c.n >= 30);
}

TEST(string_escape_matches_systemd) {
        struct counts c = { .path = false };

        test_foreach_line("escape-strings.txt", compare_line, &c);
        ASSERT_TRUE(c.n >= 5);
}

TEST(unescape_refuses_bad_escapes) {
        char *p;

        ASSERT_EQ(unit_name_unescape("bad\\x4", &p), -EINVAL);
        ASSERT_EQ(unit_name_unescape("bad\\y41", &p), -EINVAL);
}

TEST(instance_names) {
        char *n;
        char longpath[400] = "/";

        ASSERT_OK(unit_name_from_path_instance("urlboot-import", "/run/machines/rootdisk.raw", ".service", &n));
        ASSERT_STREQ(n, "urlboot-import@run-machines-rootdisk.raw.service");
        free(n);
        ASSERT_OK(unit_name_from_path_instance("urlboot-loop", "/var/lib/confexts/my-ext.raw", ".service", &n));
        ASSERT_STREQ(n, "urlboot-loop@var-lib-confexts-my\\x2dext.raw.service");
        free(n);
        ASSERT_EQ(unit_name_from_path_instance("x", "/a/../b", ".service", &n), -EINVAL);

        /* Valid path components, but too long for a unit name. */
        for (int i = 0; i < 30; i++)
                strcat(longpath, "component/");
        ASSERT_EQ(unit_name_from_path_instance("x", longpath, ".service", &n), -ENAMETOOLONG);
}
