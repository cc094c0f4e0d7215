/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The terminal of the program urlboot-unit-shell runs in a running service's namespaces.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <systemd/sd-event.h>

#include "macro.h"
#include "namespace-fork.h"
#include "pty-forward.h"
#include "shell-terminal.h"

/* Sent to us while we forward: we end with them as before, once our terminal has its mode back. */
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };

/* What the event loop saw: the child's end, or a signal that ends us. */
typedef struct Waiting {
        bool ended;
        int code, status;
        int signal;
} Waiting;

/* The slave comes from the master itself (TIOCGPTPEER), not from a path someone could swap. */
static int open_pty(ShellTerminal *t) {
        t->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (t->master < 0)
                return -errno;
        if (unlockpt(t->master) < 0)
                return -errno;
        t->slave = ioctl(t->master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
        return t->slave < 0 ? -errno : 0;
}

/* The program's output is shown on our stdout, else our stderr; when neither is a terminal (then stdin is)
 * only the echo of what we type is shown, on the terminal of our stdin, opened again for writing. */
static int pick_output(ShellTerminal *t) {
        if (t->on_stdout || t->on_stderr) {
                t->output = t->on_stdout ? STDOUT_FILENO : STDERR_FILENO;
                return 0;
        }
        t->reopened_output = open("/proc/self/fd/0", O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (t->reopened_output < 0)
                return -errno;
        t->output = t->reopened_output;
        return 0;
}

static int block_signals(ShellTerminal *t) {
        sigset_t mask;

        sigemptyset(&mask);
        sigaddset(&mask, SIGCHLD);
        sigaddset(&mask, SIGWINCH);
        for (size_t i = 0; i < ELEMENTSOF(fatal_signals); i++)
                sigaddset(&mask, fatal_signals[i]);
        if (sigprocmask(SIG_BLOCK, &mask, &t->saved_mask) < 0)
                return -errno;
        t->signals_blocked = true;
        return 0;
}

int shell_terminal_open(ShellTerminal *ret) {
        ShellTerminal t = SHELL_TERMINAL_NULL;
        int r;

        assert(ret);

        t.on_stdin = isatty(STDIN_FILENO);
        t.on_stdout = isatty(STDOUT_FILENO);
        t.on_stderr = isatty(STDERR_FILENO);
        if (!t.on_stdin && !t.on_stdout && !t.on_stderr) {
                *ret = t;
                return 0;
        }

        r = open_pty(&t);
        if (r >= 0)
                r = pick_output(&t);
        if (r >= 0)
                r = block_signals(&t);
        if (r < 0)
                shell_terminal_close(&t);
        *ret = t;
        return r;
}

int shell_terminal_attach(const ShellTerminal *t) {
        bool on[3];

        assert(t);

        on[STDIN_FILENO] = t->on_stdin;
        on[STDOUT_FILENO] = t->on_stdout;
        on[STDERR_FILENO] = t->on_stderr;

        if (setsid() < 0)
                return -errno;
        if (t->master < 0)
                return 0;
        if (ioctl(t->slave, TIOCSCTTY, 0) < 0)
                return -errno;
        for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
                if (on[fd] && dup2(t->slave, fd) < 0)
                        return -errno;
        return 0;
}

static int on_child_exit(sd_event_source *s, const siginfo_t *si, void *userdata) {
        Waiting *w = userdata;

        w->ended = true;
        w->code = si->si_code;
        w->status = si->si_status;
        return sd_event_exit(sd_event_source_get_event(s), 0);
}

static int on_fatal_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        Waiting *w = userdata;

        w->signal = (int) si->ssi_signo;
        return sd_event_exit(sd_event_source_get_event(s), 0);
}

/* Forwards until the child ends or a fatal signal comes; our terminal has its mode back on return. */
static int forward(const ShellTerminal *t, pid_t child, Waiting *w) {
        sd_event *event = NULL;
        PtyForward *f = NULL;
        int r;

        r = sd_event_new(&event);
        if (r >= 0)
                r = sd_event_add_child(event, NULL, child, WEXITED, on_child_exit, w);
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(fatal_signals); i++)
                r = sd_event_add_signal(event, NULL, fatal_signals[i], on_fatal_signal, w);
        if (r >= 0)
                r = pty_forward_new(event, t->master, &f);
        if (r >= 0) {
                pty_forward_set_output(f, t->output);
                if (!t->on_stdin)
                        r = pty_forward_no_input(f);
        }
        if (r >= 0)
                r = sd_event_loop(event);
        pty_forward_drain(f);
        pty_forward_free(f);
        sd_event_unref(event);
        return r;
}

/* Ends us with sig, as its default action would have without the forwarding. */
_noreturn_ static void die_of_signal(int sig) {
        struct sigaction sa = { .sa_handler = SIG_DFL };
        sigset_t mask;

        (void) sigaction(sig, &sa, NULL);
        (void) raise(sig);
        sigemptyset(&mask);
        sigaddset(&mask, sig);
        (void) sigprocmask(SIG_UNBLOCK, &mask, NULL);
        _exit(128 + sig);
}

int shell_terminal_wait(ShellTerminal *t, pid_t child, int *ret_code, int *ret_status) {
        Waiting w = {};
        int r;

        assert(t);
        assert(ret_code);
        assert(ret_status);

        if (t->master < 0)
                return wait_for_child(child, ret_code, ret_status);

        /* The children have it now: once they are gone, nobody holds the program's side. */
        (void) close(t->slave);
        t->slave = -1;

        r = forward(t, child, &w);
        if (w.signal > 0)
                die_of_signal(w.signal);
        if (!w.ended) {
                /* Nobody would read what the program writes to its terminal: end it rather than let it hang. */
                (void) kill(child, SIGTERM);
                (void) wait_for_child(child, &w.code, &w.status);
                return r < 0 ? r : -EIO;
        }
        *ret_code = w.code;
        *ret_status = w.status;
        return 0;
}

void shell_terminal_close(ShellTerminal *t) {
        int *fds[] = { &t->master, &t->slave, &t->reopened_output };

        assert(t);

        for (size_t i = 0; i < ELEMENTSOF(fds); i++)
                if (*fds[i] >= 0)
                        (void) close(*fds[i]);
        if (t->signals_blocked)
                (void) sigprocmask(SIG_SETMASK, &t->saved_mask, NULL);
        *t = SHELL_TERMINAL_NULL;
}
