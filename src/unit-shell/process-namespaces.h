/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The namespaces and root directory of a running process, opened so another process can enter them.
 *
 * Only the pid, mount, network and user namespaces are taken, as systemd-analyze unit-shell does in
 * v258: the shell keeps the caller's ipc, uts, cgroup and time namespaces.
 */
#pragma once

#include <sys/types.h>

typedef struct ProcessNamespaces {
        int pidfd; /**< pins the process, to check it is still the one whose namespaces we opened */
        int pid_ns;
        int mnt_ns;
        int net_ns;
        int user_ns; /**< -1 on kernels without user namespaces */
        int root;    /**< the process's root directory */
} ProcessNamespaces;

#define PROCESS_NAMESPACES_NULL \
        ((ProcessNamespaces) { .pidfd = -1, .pid_ns = -1, .mnt_ns = -1, .net_ns = -1, .user_ns = -1, .root = -1 })

/**
 * Open the namespaces and root of pid (through /proc/PID/ns and /proc/PID/root), then make sure pid
 * still names the same living process.
 *
 * @v cgroup  when given, the process behind the pidfd must be in this control group or below it: the
 *            PID came from the manager earlier, and by the time the pidfd pins a process the PID may
 *            belong to another one (F10 of the security review of 2026-12-05)
 * @ret ret   the open descriptors (close-on-exec); untouched on failure
 * @ret       0, -ESRCH if the process is gone (also when it went while we opened), -EREMCHG if the
 *            process at pid is not in cgroup, -ENOSYS if /proc is not mounted, another negative errno
 */
int process_namespaces_open(pid_t pid, const char *cgroup, ProcessNamespaces *ret);

/** Close every descriptor and reset to PROCESS_NAMESPACES_NULL. */
void process_namespaces_close(ProcessNamespaces *ns);

/**
 * Enter the namespaces in the order pid, mount, network, user (the user namespace is skipped when it
 * is already ours: joining it would fail), then chroot into the root. After joining a user
 * namespace, drop the supplementary groups and become uid/gid 0 there; failing that is an error.
 *
 * Changes the calling process for good: call it in a child. The pid namespace applies to the
 * children forked afterwards, not to the caller.
 * @ret 0 or negative errno
 */
int process_namespaces_enter(const ProcessNamespaces *ns);
