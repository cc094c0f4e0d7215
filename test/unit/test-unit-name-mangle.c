/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit name mangling (urlboot-unit-shell's UNIT), compared with "systemd-escape --mangle" for every name in
 * test/data/unit-name-mangle.txt, and the notes the caller prints. */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "string-util.h"
#include "tests.h"
#include "unit-name-mangle.h"

/* Runs systemd-escape --mangle -- ARG; its exit status, first output line in out. */
static int systemd_escape_mangle(const char *arg, char *out, size_t size) {
        int pipefd[2], status;
        size_t len = 0;
        ssize_t n;
        pid_t pid;

        if (pipe(pipefd) < 0)
                test_fail(__FILE__, __LINE__, "pipe: %s", strerror(errno));
        pid = fork();
        if (pid == 0) {
                dup2(pipefd[1], STDOUT_FILENO);
                close(pipefd[0]);
                if (!freopen("/dev/null", "w", stderr))
                        _exit(127);
                execlp("systemd-escape", "systemd-escape", "--mangle", "--", arg, (char *) NULL);
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

static void compare_line(char *line, int lineno, void *userdata) {
        const char *arg = streq(line, "(empty)") ? "" : line;
        _cleanup_free_ char *ours = NULL;
        char theirs[4096];
        int *n = userdata, status, r;

        status = systemd_escape_mangle(arg, theirs, sizeof(theirs));
        if (status == 127)
                test_fail(__FILE__, __LINE__, "systemd-escape is not installed");
        r = unit_name_mangle(arg, ".service", &ours);
        if ((status == 0) != (r >= 0))
                test_fail(__FILE__, __LINE__, "line %d: \"%s\": systemd-escape status %d, ours %d", lineno, arg, status,
                          r);
        if (r >= 0 && !streq(ours, theirs))
                test_fail(__FILE__, __LINE__, "line %d: \"%s\": ours \"%s\", systemd-escape \"%s\"", lineno, arg, ours,
                          theirs);
        (*n)++;
}

TEST(mangle_matches_systemd) {
        int n = 0;

        test_foreach_line("unit-name-mangle.txt", compare_line, &n);
        test_note("%d names compared with systemd-escape --mangle", n);
        ASSERT_TRUE(n >= 30);
}

/* What the caller says about a name: nothing, the escape, the glob, whether the suffix was added. */
TEST(mangle_notes) {
        static const struct {
                const char *in, *out;
                int flags;
        } cases[] = {
                { "foo.service", "foo.service", 0 },
                { "foo", "foo.service", UNIT_NAME_MANGLED_SUFFIXED },
                { "foo*", "foo\\x2a.service", UNIT_NAME_MANGLED_GLOB | UNIT_NAME_MANGLED_ESCAPED | UNIT_NAME_MANGLED_SUFFIXED },
                { "a b", "a\\x20b.service", UNIT_NAME_MANGLED_ESCAPED | UNIT_NAME_MANGLED_SUFFIXED },
                { "a b.service", "a\\x20b.service", UNIT_NAME_MANGLED_ESCAPED },
                { "a b*", "a\\x20b\\x2a.service", UNIT_NAME_MANGLED_ESCAPED | UNIT_NAME_MANGLED_SUFFIXED },
                { "/dev/sda", "dev-sda.device", 0 },
                { "/srv/x", "srv-x.mount", 0 },
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *out = NULL;

                ASSERT_EQ(unit_name_mangle(cases[i].in, ".service", &out), cases[i].flags);
                ASSERT_STREQ(out, cases[i].out);
                free(out);
        }
}

TEST(unit_name_validity) {
        ASSERT_TRUE(unit_name_is_valid("a.service"));
        ASSERT_TRUE(unit_name_is_valid("a@.service"));
        ASSERT_TRUE(unit_name_is_valid("a@b@c.service"));
        ASSERT_FALSE(unit_name_is_valid("@a.service"));
        ASSERT_FALSE(unit_name_is_valid("a.nope"));
        ASSERT_FALSE(unit_name_is_valid(".service"));
        ASSERT_FALSE(unit_name_is_valid("a b.service"));
        ASSERT_TRUE(unit_suffix_is_valid(".scope"));
        ASSERT_FALSE(unit_suffix_is_valid("service"));
}
