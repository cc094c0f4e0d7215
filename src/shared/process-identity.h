/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Who is at the other end of a Unix socket, fixed when the connection is taken, so that a decision
 * made later (polkit's) is about that process and not about whoever holds its PID by then.
 *
 * SO_PEERCRED's PID stays the connecting process's after it exits, and a child that inherited the
 * socket can go on talking; once the PID is reused, "the process with this PID" is someone else.
 * Where the kernel has SO_PEERPIDFD (6.5) a pidfd pins the process itself; elsewhere (Debian 12's
 * 6.1) the start time and the UID read when the connection is taken stand for it, and both are
 * compared again after every decision.
 *
 * UIDs here are effective UIDs, as SO_PEERCRED reports them.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct ProcessIdentity {
        pid_t pid;           /* SO_PEERCRED: the process that connected */
        uid_t uid;           /* its effective UID at connect time */
        gid_t gid;
        uint64_t start_time; /* field 22 of /proc/PID/stat (clock ticks after boot) when the connection was taken */
        int pidfd;           /* SO_PEERPIDFD, or -1 where the kernel has none */
        bool known;          /* the process was found alive, with the connecting UID, when the connection was taken */
} ProcessIdentity;

#define PROCESS_IDENTITY_NULL ((ProcessIdentity) { .pidfd = -1 })

/**
 * Take the identity of the peer of a connected AF_UNIX socket: SO_PEERCRED, SO_PEERPIDFD where the
 * kernel has it, and the process's start time. A peer that is already gone, or whose PID now belongs to
 * a process of another user, is left !known (callers refuse whatever depends on who calls).
 * @v use_pidfd  false only to exercise the path of kernels without SO_PEERPIDFD
 * @ret          0 (also for a peer left !known), or a negative errno when SO_PEERCRED fails
 */
int process_identity_from_socket(int fd, bool use_pidfd, ProcessIdentity *ret);

/**
 * Is the process that connected still the one at its PID, with the same UID?
 * @ret  0 if so; -ESRCH if it exited or its PID is now another process's; -EPERM if it changed its
 *       UID; -ENOKEY if the identity was never known
 */
int process_identity_verify(const ProcessIdentity *id);

/** Close the pidfd. */
void process_identity_done(ProcessIdentity *id);

/**
 * The start time of a process: field 22 of /proc/PID/stat, read after the command name (field 2),
 * which may contain spaces and parentheses.
 * @ret  0, -ESRCH if there is no such process, -EIO if the file cannot be parsed
 */
int process_start_time(pid_t pid, uint64_t *ret);

/** The effective UID of a process (the second of the "Uid:" line of /proc/PID/status). */
int process_effective_uid(pid_t pid, uid_t *ret);

/**
 * Parse the text of a /proc/PID/stat file for field 22.
 * @ret  0, -EIO if it is not such a file
 */
int proc_stat_start_time(const char *text, uint64_t *ret);
