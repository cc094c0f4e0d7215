/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command-output.h"
#include "macro.h"

extern char **environ;

static int wait_status(pid_t pid) {
        int status;

        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return -errno;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Everything from @fd up to @max bytes; -E2BIG beyond. */
static int read_all(int fd, size_t max, char **ret, size_t *ret_size) {
        size_t size = 0, allocated = 0;
        char *buf = NULL;

        for (;;) {
                ssize_t n;
                if (allocated - size < 4096) {
                        char *p;
                        allocated = allocated ? allocated * 2 : 16384;
                        p = realloc(buf, allocated + 1);
                        if (!p) {
                                free(buf);
                                return -ENOMEM;
                        }
                        buf = p;
                }
                n = read(fd, buf + size, allocated - size);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        free(buf);
                        return -errno;
                }
                if (n == 0)
                        break;
                size += (size_t) n;
                if (size > max) {
                        free(buf);
                        return -E2BIG;
                }
        }
        buf[size] = 0;
        *ret = buf;
        if (ret_size)
                *ret_size = size;
        return 0;
}

int command_output(char *const argv[], size_t max, int quiet, char **ret, size_t *ret_size, int *ret_status) {
        posix_spawn_file_actions_t actions;
        int pipe_fds[2], r, status;
        pid_t pid;

        assert(argv && argv[0]);
        assert(ret);

        if (pipe2(pipe_fds, O_CLOEXEC) < 0)
                return -errno;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
        if (quiet)
                posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
        r = -posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        close(pipe_fds[1]);
        if (r < 0) {
                close(pipe_fds[0]);
                return r;
        }
        r = read_all(pipe_fds[0], max, ret, ret_size);
        close(pipe_fds[0]);
        if (r < 0)
                (void) kill(pid, SIGKILL);
        status = wait_status(pid);
        if (ret_status)
                *ret_status = status;
        if (r >= 0 && status != 0) {
                free(*ret);
                *ret = NULL;
                r = status < 0 ? status : -ECHILD;
        }
        return r;
}
