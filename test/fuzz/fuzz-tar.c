/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: unpacking damaged and hostile tarballs (any compression) into a scratch tree.
 *
 * The oracle is what a hostile archive must never achieve: beside the tree sit a canary file and a
 * canary directory, and after every input the tree must still be the same real directory (not a
 * link, not a file), nothing else may have appeared beside it, the canaries' contents, modes,
 * owners and link counts must be unchanged, and the caller's working directory must be the same. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "rm-rf.h"
#include "tar-unpack.h"

#define CANARY_TEXT "canary\n"

typedef struct Input {
        const uint8_t *data;
        size_t size, off;
} Input;

static long input_read(void *userdata, void *buf, size_t size) {
        Input *in = userdata;
        size_t n = in->size - in->off < size ? in->size - in->off : size;

        /* Small reads exercise libarchive's buffering. */
        if (n > 4096)
                n = 4096;
        memcpy(buf, in->data + in->off, n);
        in->off += n;
        return (long) n;
}

static void write_canary(const char *path, mode_t mode) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

        if (fd < 0 || write(fd, CANARY_TEXT, strlen(CANARY_TEXT)) != (ssize_t) strlen(CANARY_TEXT))
                abort();
        close(fd);
        if (chmod(path, mode) < 0)
                abort();
}

/* The file is exactly as write_canary() left it. */
static void check_canary(const char *path, mode_t mode, const struct stat *before) {
        char buf[64] = "";
        struct stat st;
        ssize_t n;
        int fd;

        if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || (st.st_mode & 07777) != mode || st.st_nlink != 1 ||
            st.st_uid != before->st_uid || st.st_gid != before->st_gid || st.st_ino != before->st_ino)
                abort();
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                abort();
        n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n != (ssize_t) strlen(CANARY_TEXT) || strcmp(buf, CANARY_TEXT) != 0)
                abort();
}

/* The directory holds exactly the names given (besides "." and ".."). */
static void check_entries(const char *dir, const char *const *names, size_t n) {
        DIR *d = opendir(dir);
        struct dirent *e;
        size_t seen = 0;

        if (!d)
                abort();
        while ((e = readdir(d))) {
                bool known = false;

                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                for (size_t i = 0; i < n; i++)
                        known = known || strcmp(e->d_name, names[i]) == 0;
                if (!known)
                        abort();
                seen++;
        }
        closedir(d);
        if (seen != n)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const char *const top_names[] = { "tree", "canary", "canarydir" }, *const dir_names[] = { "inner" };
        char top[] = "/tmp/urlboot-fuzz-tar.XXXXXX", p[3][PATH_MAX], error[256], cwd[PATH_MAX], cwd_after[PATH_MAX];
        struct stat tree_st, st, canary_st, inner_st, dir_st;
        Input in = { data, size, 0 };
        TarRoot root;
        int tree_fd;

        if (!getcwd(cwd, sizeof cwd) || !mkdtemp(top))
                abort();
        snprintf(p[0], sizeof p[0], "%s/tree", top);
        snprintf(p[1], sizeof p[1], "%s/canary", top);
        snprintf(p[2], sizeof p[2], "%s/canarydir", top);
        if (mkdir(p[0], 0700) < 0 || mkdir(p[2], 0750) < 0)
                abort();
        write_canary(p[1], 0640);
        strcat(p[2], "/inner");
        write_canary(p[2], 0600);
        p[2][strlen(p[2]) - strlen("/inner")] = 0;
        tree_fd = open(p[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (tree_fd < 0 || fstat(tree_fd, &tree_st) < 0 || lstat(p[1], &canary_st) < 0 || lstat(p[2], &dir_st) < 0)
                abort();
        strcat(p[2], "/inner");
        if (lstat(p[2], &inner_st) < 0)
                abort();
        p[2][strlen(p[2]) - strlen("/inner")] = 0;

        (void) tar_unpack(tree_fd, input_read, &in, &root, error, sizeof error);

        /* The tree is still the very directory we made. */
        if (lstat(p[0], &st) < 0 || !S_ISDIR(st.st_mode) || st.st_ino != tree_st.st_ino || st.st_dev != tree_st.st_dev)
                abort();
        check_entries(top, top_names, 3);
        check_canary(p[1], 0640, &canary_st);
        if (lstat(p[2], &st) < 0 || !S_ISDIR(st.st_mode) || (st.st_mode & 07777) != 0750 || st.st_ino != dir_st.st_ino)
                abort();
        check_entries(p[2], dir_names, 1);
        strcat(p[2], "/inner");
        check_canary(p[2], 0600, &inner_st);
        if (!getcwd(cwd_after, sizeof cwd_after) || strcmp(cwd, cwd_after) != 0)
                abort();

        close(tree_fd);
        (void) rm_rf(top);
        return 0;
}
