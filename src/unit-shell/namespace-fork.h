/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Forking into the namespaces of another process, with the process structure of systemd's
 * namespace_fork(): a middle child joins the namespaces (a pid namespace only applies to the
 * children of whoever joins it), forks the process that does the work, waits for it and exits
 * with its status.
 */
#pragma once

#include <sys/types.h>

#include "process-namespaces.h"

/**
 * Fork twice and enter ns in between.
 *
 * The middle child is named outer_name, starts with default signal handlers and an empty signal
 * mask, gets SIGTERM when the caller dies and exits with the grandchild's exit status (1 when the
 * grandchild was killed by a signal or the namespaces could not be entered). The grandchild is
 * named inner_name, runs inside the namespaces and root of ns, and gets SIGKILL when the middle
 * child dies.
 *
 * @ret ret_pid  in the caller: the middle child, to wait for
 * @ret          0 in the grandchild, 1 in the caller, negative errno if the first fork failed
 */
int namespace_fork(const char *outer_name, const char *inner_name, const ProcessNamespaces *ns, pid_t *ret_pid);

/**
 * Wait for a child to end.
 *
 * @ret ret_code    CLD_EXITED, CLD_KILLED or CLD_DUMPED
 * @ret ret_status  its exit status or signal number
 * @ret             0 or negative errno
 */
int wait_for_child(pid_t pid, int *ret_code, int *ret_status);

/** "SIGTERM", "SIGRTMIN+3", or the number for signals without a name; static buffer for the last two. */
const char *signal_name(int sig);
