/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for whole-file reads and atomic writes. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "tests.h"

static int count_entries(const char *dir) {
        DIR *d = opendir(dir);
        struct dirent *de;
        int n = 0;

        ASSERT_TRUE(d);
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
                        n++;
        closedir(d);
        return n;
}

TEST(atomic_write_and_read) {
        char path[512], *s;
        size_t size;
        struct stat st;

        snprintf(path, sizeof path, "%s/file.conf", test_tmpdir());
        ASSERT_OK(write_file_atomic(path, "hello\n", 6, 0640));
        ASSERT_OK(read_full_file(path, 100, &s, &size));
        ASSERT_EQ(size, 6);
        ASSERT_STREQ(s, "hello\n");
        free(s);
        ASSERT_OK(stat(path, &st));
        ASSERT_EQ(st.st_mode & 07777, 0640);

        /* Replacing keeps exactly one file: no temporary is left behind. */
        ASSERT_OK(write_file_atomic(path, "again", 5, 0644));
        ASSERT_EQ(count_entries(test_tmpdir()), 1);
        ASSERT_OK(read_full_file(path, 100, &s, NULL));
        ASSERT_STREQ(s, "again");
        free(s);
}

TEST(size_limit_and_missing) {
        char path[512], *s;

        snprintf(path, sizeof path, "%s/big", test_tmpdir());
        ASSERT_OK(write_file_atomic(path, "0123456789", 10, 0644));
        ASSERT_EQ(read_full_file(path, 9, &s, NULL), -EFBIG);
        ASSERT_OK(read_full_file(path, 10, &s, NULL));
        free(s);
        snprintf(path, sizeof path, "%s/missing", test_tmpdir());
        ASSERT_EQ(read_full_file(path, 10, &s, NULL), -ENOENT);
}

TEST(large_file) {
        char path[512], *s;
        size_t size, n = 1 << 20;
        char *data = malloc(n);

        for (size_t i = 0; i < n; i++)
                data[i] = (char) ('a' + i % 26);
        snprintf(path, sizeof path, "%s/large", test_tmpdir());
        ASSERT_OK(write_file_atomic(path, data, n, 0644));
        ASSERT_OK(read_full_file(path, n, &s, &size));
        ASSERT_EQ(size, n);
        ASSERT_TRUE(memcmp(s, data, n) == 0);
        free(s);
        free(data);
}

TEST(failure_leaves_nothing) {
        char path[512];

        /* The target directory does not exist: nothing may appear anywhere. */
        snprintf(path, sizeof path, "%s/nodir/file", test_tmpdir());
        ASSERT_EQ(write_file_atomic(path, "x", 1, 0644), -ENOENT);
        ASSERT_EQ(count_entries(test_tmpdir()), 0);

        /* Renaming over a directory fails after the temporary was written: it must be removed. */
        snprintf(path, sizeof path, "%s/adir", test_tmpdir());
        ASSERT_OK(mkdir(path, 0755));
        char inner[600];
        snprintf(inner, sizeof inner, "%s/x", path);
        ASSERT_OK(mkdir(inner, 0755));
        ASSERT_TRUE(write_file_atomic(path, "x", 1, 0644) < 0);
        ASSERT_EQ(count_entries(test_tmpdir()), 1);
}
