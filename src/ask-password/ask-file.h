/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The classic password agent protocol (what systemd 252's console, wall, tty and plymouth
 * agents answer): a datagram socket "sck.<hex>" and a file "ask.<number>" in the agents'
 * directory, written under a hidden name, made 0644 and renamed into place; the answer is one
 * datagram from root or our own uid: "+" and the NUL-separated passwords, or "-" to cancel.
 * The file and the socket are removed whatever the outcome, also when the caller hangs up.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "ask-request.h"

typedef struct AskQuestion {
        const char *directory; /* "/run/systemd/ask-password" */
        const char *message, *icon, *id; /* NULL: the key is left out */
        bool accept_cached;
        AskEcho echo;
        uint64_t not_after;    /* CLOCK_MONOTONIC µs, UINT64_MAX: never */
        int hup_fd;            /* POLLHUP here withdraws the question (-ECONNRESET); -1: none */
        /* Called when the directory's attributes change (another querier cached a password):
         * 0 with passwords ends the wait, -ENOKEY waits on, other errors end it. NULL: not watched. */
        int (*check_cache)(void *userdata, char ***ret);
        void *userdata;
} AskQuestion;

/**
 * Ask the agents and wait for the answer.
 * @ret  0 with the passwords; -ETIME (deadline passed), -ECANCELED (an agent said "-"),
 *       -ECONNRESET (hup_fd hung up), -EINTR (SIGINT or SIGTERM arrived), other errno
 */
int ask_file_query(const AskQuestion *q, char ***ret);

/** Set the directory's timestamps to now, so queriers watching it look at the cache again. */
int ask_file_touch_directory(const char *directory);
