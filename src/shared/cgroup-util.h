/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Which control group a process is in, as the service manager names it (the unified hierarchy's path,
 * or the name=systemd one's on legacy and hybrid setups), and whether that lies within a unit's.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/**
 * The manager's path from the text of /proc/PID/cgroup: the "name=systemd" line where there is one
 * (legacy and hybrid setups, where the manager keeps units there), else the "0::" line.
 * @ret 0, -ENODATA if neither is there, -ENOMEM
 */
int proc_cgroup_parse(const char *text, char **ret);

/** The same for a running process. @ret 0, -ESRCH if there is no such process, -ENODATA, -ENOMEM */
int process_cgroup(pid_t pid, char **ret);

/** path is group or one of its subgroups ("/a/b" is within "/a", "/ab" is not). */
bool cgroup_is_within(const char *path, const char *group);
