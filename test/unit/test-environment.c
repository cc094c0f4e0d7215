/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for initrd detection, the systemd version, and logging. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "initrd.h"
#include "log.h"
#include "systemd-version.h"
#include "tests.h"

/* In a child with its own /etc (a tmpfs), with or without initrd-release: in_initrd()'s answer as the
 * exit status (0 no, 1 yes), or 77 if a mount namespace cannot be had. */
static int in_initrd_with_etc(bool release, const char *env) {
        pid_t pid = fork();
        int status;

        ASSERT_TRUE(pid >= 0);
        if (pid == 0) {
                if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
                    mount("tmpfs", "/etc", "tmpfs", 0, NULL) < 0)
                        _exit(77);
                if (release && close(open("/etc/initrd-release", O_CREAT | O_WRONLY | O_CLOEXEC, 0644)) < 0)
                        _exit(77);
                if (env)
                        setenv("SYSTEMD_IN_INITRD", env, 1);
                else
                        unsetenv("SYSTEMD_IN_INITRD");
                _exit(in_initrd() ? 1 : 0);
        }
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status));
        return WEXITSTATUS(status);
}

TEST(in_initrd_override) {
        setenv("SYSTEMD_IN_INITRD", "1", 1);
        ASSERT_TRUE(in_initrd());
        setenv("SYSTEMD_IN_INITRD", "no", 1);
        ASSERT_FALSE(in_initrd());
        unsetenv("SYSTEMD_IN_INITRD");
}

TEST(in_initrd_falls_back_to_initrd_release) {
        if (in_initrd_with_etc(false, NULL) == 77) {
                test_note("no mount namespace (not root?): skipped");
                return;
        }
        ASSERT_EQ(in_initrd_with_etc(true, NULL), 1);
        ASSERT_EQ(in_initrd_with_etc(false, NULL), 0);
        /* An invalid value is ignored: the file decides. */
        ASSERT_EQ(in_initrd_with_etc(true, "garbage"), 1);
        ASSERT_EQ(in_initrd_with_etc(false, "garbage"), 0);
        /* A valid one wins over the file. */
        ASSERT_EQ(in_initrd_with_etc(true, "0"), 0);
}

TEST(systemd_version_parse) {
        ASSERT_EQ(systemd_version_parse("systemd 252 (252.38-1~deb12u1)\n"), 252);
        ASSERT_EQ(systemd_version_parse("systemd 258"), 258);
        ASSERT_EQ(systemd_version_parse("systemd 258~rc3 (258~rc3-1)"), 258);
        ASSERT_EQ(systemd_version_parse("systemd 261.1"), 261);
        ASSERT_EQ(systemd_version_parse("systemd abc"), -EINVAL);
        ASSERT_EQ(systemd_version_parse("elogind 252"), -EINVAL);
        ASSERT_EQ(systemd_version_parse("systemd 25x"), -EINVAL);
        ASSERT_EQ(systemd_version_parse("systemd 0"), -EINVAL);
}

TEST(systemd_version_override_and_detection) {
        setenv("URLBOOT_SYSTEMD_VERSION", "258", 1);
        ASSERT_EQ(systemd_version(), 258);
        setenv("URLBOOT_SYSTEMD_VERSION", "25x", 1);
        ASSERT_EQ(systemd_version(), -EINVAL);
        unsetenv("URLBOOT_SYSTEMD_VERSION");
        /* The build host runs Debian's systemd; whatever it is, it is a plausible version. */
        int v = systemd_version();
        test_note("detected systemd %d", v);
        ASSERT_TRUE(v >= 200 && v < 1000);
}

/* Captures what log_internal() prints to stderr. */
static char *capture_log(int prefix, int level, int error, const char *msg) {
        char path[512];
        int saved = dup(STDERR_FILENO), fd;
        char *buf = malloc(512);
        ssize_t n;

        snprintf(path, sizeof path, "%s/log", test_tmpdir());
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
        dup2(fd, STDERR_FILENO);
        log_set_prefix_mode(prefix);
        log_set_program("prog");
        log_internal(level, error, "%s: %m", msg);
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);
        lseek(fd, 0, SEEK_SET);
        n = read(fd, buf, 511);
        buf[n < 0 ? 0 : n] = 0;
        close(fd);
        log_set_prefix_mode(-1);
        return buf;
}

TEST(log_format) {
        char *s;

        log_set_max_level(LOG_INFO);
        s = capture_log(0, LOG_ERR, -ENOENT, "Failed to open x");
        ASSERT_STREQ(s, "prog: Failed to open x: No such file or directory\n");
        free(s);
        s = capture_log(1, LOG_WARNING, EIO, "Disk");
        ASSERT_STREQ(s, "<4>Disk: Input/output error\n");
        free(s);
        s = capture_log(0, LOG_DEBUG, 0, "hidden");
        ASSERT_STREQ(s, "");
        free(s);

        ASSERT_EQ(log_internal(LOG_DEBUG, ENOENT, "x"), -ENOENT);
        ASSERT_EQ(log_internal(LOG_DEBUG, -EIO, "x"), -EIO);
}

TEST(log_levels) {
        ASSERT_EQ(log_level_from_string("debug"), LOG_DEBUG);
        ASSERT_EQ(log_level_from_string("ERR"), LOG_ERR);
        ASSERT_EQ(log_level_from_string("warning"), LOG_WARNING);
        ASSERT_EQ(log_level_from_string("5"), 5);
        ASSERT_EQ(log_level_from_string("8"), -EINVAL);
        ASSERT_EQ(log_level_from_string("loud"), -EINVAL);
        ASSERT_EQ(log_level_from_string(""), -EINVAL);
}
