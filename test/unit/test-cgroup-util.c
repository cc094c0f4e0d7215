/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for a process's control group as the manager names it. */
#include <stdlib.h>
#include <unistd.h>

#include "cgroup-util.h"
#include "tests.h"

TEST(parse) {
        static const struct { const char *text, *want; } cases[] = {
                { "0::/system.slice/foo.service\n", "/system.slice/foo.service" },
                /* hybrid and legacy: the manager's hierarchy is name=systemd */
                { "12:pids:/x\n1:name=systemd:/system.slice/a.service\n0::/other\n", "/system.slice/a.service" },
                { "1:name=systemd:/a b\n", "/a b" },
                { "0::/\n", "/" },
                { "0::/last-line-without-newline", "/last-line-without-newline" },
        };
        char *path;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                ASSERT_OK(proc_cgroup_parse(cases[i].text, &path));
                ASSERT_STREQ(path, cases[i].want);
                free(path);
        }
        ASSERT_EQ(proc_cgroup_parse("4:memory:/x\n", &path), -ENODATA);
        ASSERT_EQ(proc_cgroup_parse("0::relative\n", &path), -ENODATA);
        ASSERT_EQ(proc_cgroup_parse("1:name=systemdx:/x\n", &path), -ENODATA);
        ASSERT_EQ(proc_cgroup_parse("", &path), -ENODATA);
}

TEST(within) {
        ASSERT_TRUE(cgroup_is_within("/system.slice/a.service", "/system.slice/a.service"));
        ASSERT_TRUE(cgroup_is_within("/system.slice/a.service/sub", "/system.slice/a.service"));
        ASSERT_FALSE(cgroup_is_within("/system.slice/a.service2", "/system.slice/a.service"));
        ASSERT_FALSE(cgroup_is_within("/system.slice", "/system.slice/a.service"));
        ASSERT_TRUE(cgroup_is_within("/anything", "/"));
}

TEST(own_process) {
        char *path;

        ASSERT_OK(process_cgroup(getpid(), &path));
        ASSERT_TRUE(path[0] == '/');
        free(path);
        ASSERT_EQ(process_cgroup(0x7ffffff0, &path), -ESRCH);
}
