/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Forwarding between our terminal and a pseudo terminal.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "pty-forward.h"

#define PTY_BUFFER_SIZE 4096

struct PtyForward {
        int master;
        int output; /* where the master's output goes: stdout unless pty_forward_set_output() said otherwise */
        sd_event_source *stdin_source, *master_source, *winch_source;
        bool saved_termios_valid;
        struct termios saved_termios;

        /* Read from stdin, not yet accepted by the master: stdin is only read when this is empty,
         * so a service that does not read its input stops us reading ours. */
        char input[PTY_BUFFER_SIZE];
        size_t input_size;
};

static void copy_window_size(PtyForward *f) {
        struct winsize ws;

        if (ioctl(f->output, TIOCGWINSZ, &ws) >= 0 || ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) >= 0)
                (void) ioctl(f->master, TIOCSWINSZ, &ws);
}

static int update_events(PtyForward *f) {
        int r = 0;

        if (f->stdin_source)
                r = sd_event_source_set_enabled(f->stdin_source, f->input_size > 0 ? SD_EVENT_OFF : SD_EVENT_ON);
        if (r >= 0 && f->master_source)
                r = sd_event_source_set_io_events(f->master_source, EPOLLIN | (f->input_size > 0 ? EPOLLOUT : 0));
        return r;
}

static void flush_input(PtyForward *f) {
        ssize_t n;

        while (f->input_size > 0) {
                n = write(f->master, f->input, f->input_size);
                if (n < 0) {
                        /* EAGAIN: the terminal's input queue is full, wait for EPOLLOUT. Anything
                         * else: the service side is gone, the input has nowhere to go. */
                        if (errno != EAGAIN && errno != EINTR)
                                f->input_size = 0;
                        if (errno == EINTR)
                                continue;
                        return;
                }
                memmove(f->input, f->input + n, f->input_size - (size_t) n);
                f->input_size -= (size_t) n;
        }
}

static int on_stdin(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        PtyForward *f = userdata;
        ssize_t n;

        n = read(fd, f->input, sizeof(f->input));
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return 0;
        if (n <= 0) {
                struct termios t;

                /* End of our input: tell the service's terminal, as Ctrl-D would. */
                f->input[0] = tcgetattr(f->master, &t) >= 0 ? (char) t.c_cc[VEOF] : 4;
                f->input_size = 1;
                f->stdin_source = sd_event_source_disable_unref(f->stdin_source);
        } else
                f->input_size = (size_t) n;

        flush_input(f);
        return update_events(f);
}

/* Copies one read's worth from the master to the output; 0 once the master has nothing (more). */
static int master_to_output(PtyForward *f) {
        char buf[PTY_BUFFER_SIZE];
        ssize_t n;
        int r;

        n = read(f->master, buf, sizeof(buf));
        if (n < 0)
                /* EIO: every process closed the other side. */
                return errno == EINTR ? 1 : 0;
        if (n == 0)
                return 0;
        r = write_all(f->output, buf, (size_t) n);
        return r < 0 ? r : 1;
}

static int on_master(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        PtyForward *f = userdata;
        int r;

        if (revents & EPOLLOUT)
                flush_input(f);
        if (revents & (EPOLLIN | EPOLLHUP)) {
                r = master_to_output(f);
                if (r < 0)
                        return r;
                if (r == 0 && (revents & EPOLLHUP))
                        /* Nobody on the other side for now: stop polling, the unit's end stops the loop. */
                        return sd_event_source_set_enabled(s, SD_EVENT_OFF);
        }
        return update_events(f);
}

static int on_winch(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        copy_window_size(userdata);
        return 0;
}

int pty_forward_new(sd_event *event, int master, PtyForward **ret) {
        PtyForward *f;
        int flags, r;

        assert(event);
        assert(ret);

        f = calloc(1, sizeof(*f));
        if (!f)
                return -ENOMEM;
        f->master = master;
        f->output = STDOUT_FILENO;

        flags = fcntl(master, F_GETFL);
        if (flags < 0 || fcntl(master, F_SETFL, flags | O_NONBLOCK) < 0) {
                r = -errno;
                goto fail;
        }

        if (tcgetattr(STDIN_FILENO, &f->saved_termios) >= 0) {
                struct termios raw = f->saved_termios;

                cfmakeraw(&raw);
                if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) >= 0)
                        f->saved_termios_valid = true;
        }
        copy_window_size(f);

        r = sd_event_add_io(event, &f->stdin_source, STDIN_FILENO, EPOLLIN, on_stdin, f);
        if (r == -EPERM) {
                /* A regular file or /dev/null cannot be polled: the service sees end of input. */
                f->input[0] = 4;
                f->input_size = 1;
                r = 0;
        }
        if (r >= 0)
                r = sd_event_add_io(event, &f->master_source, master, EPOLLIN, on_master, f);
        if (r >= 0)
                r = sd_event_add_signal(event, &f->winch_source, SIGWINCH, on_winch, f);
        if (r >= 0)
                r = update_events(f);
        if (r < 0)
                goto fail;

        *ret = f;
        return 0;

fail:
        pty_forward_free(f);
        return r;
}

void pty_forward_set_output(PtyForward *f, int fd) {
        assert(f);
        assert(fd >= 0);

        f->output = fd;
        copy_window_size(f);
}

int pty_forward_no_input(PtyForward *f) {
        assert(f);

        f->stdin_source = sd_event_source_disable_unref(f->stdin_source);
        f->input_size = 0;
        return update_events(f);
}

void pty_forward_drain(PtyForward *f) {
        if (!f)
                return;
        while (master_to_output(f) > 0)
                ;
}

PtyForward *pty_forward_free(PtyForward *f) {
        if (!f)
                return NULL;
        sd_event_source_disable_unref(f->stdin_source);
        sd_event_source_disable_unref(f->master_source);
        sd_event_source_disable_unref(f->winch_source);
        if (f->saved_termios_valid)
                (void) tcsetattr(STDIN_FILENO, TCSADRAIN, &f->saved_termios);
        free(f);
        return NULL;
}
