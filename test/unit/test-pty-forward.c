/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urlboot-unit-shell's pseudo terminal forwarding (--new-sandbox on a terminal), with a shell on the other
 * side of a real pseudo terminal as the service manager would start it: input reaches it, its output
 * reaches us, the end of our input is its end of file, and what it wrote last is not lost. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <systemd/sd-event.h>

#include "fileio.h"
#include "pty-forward.h"
#include "string-util.h"
#include "tests.h"

static int on_child_exit(sd_event_source *s, const siginfo_t *si, void *userdata) {
        return sd_event_exit(sd_event_source_get_event(s), si->si_code == CLD_EXITED ? si->si_status : 128);
}

/* The process that forwards: stdin and stdout are the test's pipes, as they would be ours. */
_Noreturn static void run_forwarder(int in, int out, const char *script) {
        sd_event *event = NULL;
        PtyForward *f = NULL;
        sigset_t mask;
        int master, slave, code = 1;
        pid_t shell;

        if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
                _exit(100);
        master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
                _exit(101);
        /* Opened before the shell exists, as urlboot-unit-shell holds it until the service has it. */
        slave = open(ptsname(master), O_RDWR | O_NOCTTY);
        if (slave < 0)
                _exit(102);

        sigemptyset(&mask);
        sigaddset(&mask, SIGCHLD);
        sigaddset(&mask, SIGWINCH);
        sigprocmask(SIG_BLOCK, &mask, NULL);

        shell = fork();
        if (shell == 0) {
                sigprocmask(SIG_UNBLOCK, &mask, NULL);
                setsid();
                ioctl(slave, TIOCSCTTY, 0);
                dup2(slave, 0);
                dup2(slave, 1);
                dup2(slave, 2);
                execl("/bin/sh", "sh", "-c", script, (char *) NULL);
                _exit(127);
        }
        close(slave);

        if (sd_event_new(&event) >= 0 && pty_forward_new(event, master, &f) >= 0 &&
            sd_event_add_child(event, NULL, shell, WEXITED, on_child_exit, NULL) >= 0)
                code = sd_event_loop(event);
        pty_forward_drain(f);
        pty_forward_free(f);
        sd_event_unref(event);
        _exit(code < 0 ? 103 : code);
}

/* Runs script behind a forwarder fed with input; returns the forwarder's exit status (the script's). */
static int forward(const char *script, const char *input, char **ret_output) {
        int in[2], out[2], status;
        pid_t pid;

        ASSERT_OK(pipe(in) < 0 || pipe(out) < 0 ? -errno : 0);
        pid = fork();
        if (pid == 0) {
                close(in[1]);
                close(out[0]);
                run_forwarder(in[0], out[1], script);
        }
        close(in[0]);
        close(out[1]);
        ASSERT_OK(write_all(in[1], input, strlen(input)));
        close(in[1]);

        size_t size = 0, cap = 65536;
        char *buf = malloc(cap);
        ssize_t n;

        ASSERT_TRUE(buf);
        while (size + 1 < cap && (n = read(out[0], buf + size, cap - 1 - size)) > 0)
                size += (size_t) n;
        buf[size] = 0;
        close(out[0]);
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        *ret_output = buf;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 200;
}

TEST(input_reaches_the_terminal_and_output_comes_back) {
        _cleanup_free_ char *out = NULL;

        ASSERT_EQ(forward("read x; echo \"got:$x\"; exit 3", "hello\n", &out), 3);
        if (!strstr(out, "got:hello"))
                test_fail(__FILE__, __LINE__, "output: %s", out);
}

TEST(end_of_input_is_end_of_file_on_the_terminal) {
        _cleanup_free_ char *out = NULL;

        /* cat ends only when the terminal reports end of file. */
        ASSERT_EQ(forward("cat >/dev/null; echo cat-ended", "abc\n", &out), 0);
        if (!strstr(out, "cat-ended"))
                test_fail(__FILE__, __LINE__, "output: %s", out);
}

TEST(the_last_output_is_not_lost) {
        _cleanup_free_ char *out = NULL;
        char *last;

        /* More than a pipe and a terminal buffer hold, written just before the shell exits. */
        ASSERT_EQ(forward("i=0; while [ $i -lt 3000 ]; do echo line-$i; i=$((i+1)); done", "", &out), 0);
        last = strstr(out, "line-2999");
        if (!last || !strstr(out, "line-0\r\n"))
                test_fail(__FILE__, __LINE__, "%zu bytes, the last line %s", strlen(out), last ? "there" : "missing");
}
