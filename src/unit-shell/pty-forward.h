/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Forwarding between our terminal (stdin, stdout) and the master side of a pseudo terminal whose
 * other side a service uses, as systemd-run --pty does: the service gets a real terminal of its
 * own (job control, line editing), we only copy bytes.
 */
#pragma once

#include <systemd/sd-event.h>

typedef struct PtyForward PtyForward;

/**
 * Start forwarding on the event loop.
 *
 * When stdin is a terminal it is put into raw mode (every key goes to the service's terminal,
 * Ctrl-C included) until pty_forward_free(); its window size is copied to the master now and on
 * every SIGWINCH (which the caller must have blocked). End of input on stdin is passed on as the
 * terminal's end-of-file character.
 *
 * The master reports a hangup while no process has the other side open: the caller keeps the
 * other side open itself until the service has opened it.
 *
 * @v master  the master side, owned by the caller
 * @ret       0 or negative errno
 */
int pty_forward_new(sd_event *event, int master, PtyForward **ret);

/**
 * Write what the master gives to fd instead of stdout, and take the window size from it (urlboot-unit-shell:
 * our stderr when stdout is redirected, so the file gets none of the terminal's echo).
 */
void pty_forward_set_output(PtyForward *f, int fd);

/**
 * Leave stdin alone: the other side reads it itself (urlboot-unit-shell when stdin is a pipe or a file and
 * only stdout or stderr are the terminal). Call it before the event loop runs.
 *
 * @ret 0 or negative errno
 */
int pty_forward_no_input(PtyForward *f);

/** Copy what the master still holds to the output, without waiting for more (after the service ended). */
void pty_forward_drain(PtyForward *f);

/** Stop forwarding and restore the terminal mode. */
PtyForward *pty_forward_free(PtyForward *f);
