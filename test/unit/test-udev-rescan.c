/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for reading a process's inotify watches from the kernel (what close_without_rescan() asks of udevd's). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "udev-rescan.h"

static void stat_new_file(const char *name, char path[static PATH_MAX], struct stat *st) {
        int fd = test_new_file(name);

        snprintf(path, PATH_MAX, "%s/%s", test_tmpdir(), name);
        ASSERT_TRUE(fstat(fd, st) == 0);
        close(fd);
}

TEST(own_watch_seen_other_file_not) {
        char watched[PATH_MAX], other[PATH_MAX];
        struct stat a, b;
        int in = inotify_init1(IN_CLOEXEC);

        ASSERT_TRUE(in >= 0);
        stat_new_file("watched", watched, &a);
        stat_new_file("other", other, &b);
        ASSERT_TRUE(process_watches_node(getpid(), &a) == 0);
        ASSERT_TRUE(inotify_add_watch(in, watched, IN_CLOSE_WRITE) >= 0);
        ASSERT_TRUE(process_watches_node(getpid(), &a) == 1);
        ASSERT_TRUE(process_watches_node(getpid(), &b) == 0);
        close(in);
        ASSERT_TRUE(process_watches_node(getpid(), &a) == 0);
}

TEST(same_inode_on_another_device_not_seen) {
        char watched[PATH_MAX];
        struct stat a;
        int in = inotify_init1(IN_CLOEXEC);

        ASSERT_TRUE(in >= 0);
        stat_new_file("watched", watched, &a);
        ASSERT_TRUE(inotify_add_watch(in, watched, IN_CLOSE_WRITE) >= 0);
        a.st_dev ^= 1;
        ASSERT_TRUE(process_watches_node(getpid(), &a) == 0);
        close(in);
}

TEST(no_such_process) {
        struct stat a = {};

        ASSERT_TRUE(process_watches_node(INT_MAX, &a) < 0);
}
