/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The namespaces and root directory of a running process.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/magic.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cgroup-util.h"
#include "fileio.h"
#include "macro.h"
#include "process-namespaces.h"
#include "string-util.h"

static bool proc_mounted(void) {
        struct statfs s;

        return statfs("/proc/", &s) >= 0 && s.f_type == PROC_SUPER_MAGIC;
}

/* Opens /proc/PID/SUFFIX; a missing /proc (a chroot without it) is -ENOSYS. */
static int open_proc_file(pid_t pid, const char *suffix, int flags) {
        char path[64];
        int fd;

        (void) snprintf(path, sizeof(path), "/proc/%d/%s", (int) pid, suffix);
        fd = open(path, flags | O_CLOEXEC);
        if (fd >= 0)
                return fd;
        if (errno == ENOENT && !proc_mounted())
                return -ENOSYS;
        return -errno;
}

/* The process the pidfd pins is in group: /proc/PID/cgroup is read after the pidfd was taken, and the
 * liveness check at the end makes sure PID was still that process then. */
static int check_cgroup(pid_t pid, const char *group) {
        _cleanup_free_ char *path = NULL;
        int r;

        r = process_cgroup(pid, &path);
        if (r < 0)
                return r;
        return cgroup_is_within(path, group) ? 0 : -EREMCHG;
}

int process_namespaces_open(pid_t pid, const char *cgroup, ProcessNamespaces *ret) {
        ProcessNamespaces ns = PROCESS_NAMESPACES_NULL;
        struct {
                const char *name;
                int *fd;
        } const types[] = {
                { "ns/pid", &ns.pid_ns },
                { "ns/mnt", &ns.mnt_ns },
                { "ns/net", &ns.net_ns },
                { "ns/user", &ns.user_ns },
        };
        int r;

        assert(ret);

        if (pid <= 0)
                return -EINVAL;

        /* The pidfd is taken first: whatever we open afterwards belongs to this process if it is
         * still alive once we are done, even if its PID is reused in between. */
        ns.pidfd = pidfd_open(pid, 0);
        if (ns.pidfd < 0)
                return -errno;
        if (cgroup) {
                r = check_cgroup(pid, cgroup);
                if (r < 0)
                        goto fail;
        }

        for (size_t i = 0; i < ELEMENTSOF(types); i++) {
                r = open_proc_file(pid, types[i].name, O_RDONLY | O_NOCTTY);
                /* A kernel without user namespaces is fine: there is simply none to join. */
                if (r == -ENOENT && streq(types[i].name, "ns/user"))
                        continue;
                if (r < 0)
                        goto fail;
                *types[i].fd = r;
        }

        r = open_proc_file(pid, "root", O_RDONLY | O_DIRECTORY);
        if (r < 0)
                goto fail;
        ns.root = r;

        if (pidfd_send_signal(ns.pidfd, 0, NULL, 0) < 0) {
                r = -errno;
                goto fail;
        }

        *ret = ns;
        return 0;

fail:
        process_namespaces_close(&ns);
        return r;
}

void process_namespaces_close(ProcessNamespaces *ns) {
        int *fds[] = { &ns->pidfd, &ns->pid_ns, &ns->mnt_ns, &ns->net_ns, &ns->user_ns, &ns->root };

        assert(ns);

        for (size_t i = 0; i < ELEMENTSOF(fds); i++)
                if (*fds[i] >= 0)
                        (void) close(*fds[i]);
        *ns = PROCESS_NAMESPACES_NULL;
}

static int is_own_user_namespace(int fd) {
        struct stat a, b;

        if (fstat(fd, &a) < 0 || stat("/proc/self/ns/user", &b) < 0)
                return -errno;
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* setgroups() is refused in a user namespace whose /proc/PID/setgroups says "deny": nothing to drop then. */
static int drop_supplementary_groups(void) {
        _cleanup_free_ char *s = NULL;
        int r;

        r = read_full_file("/proc/self/setgroups", 64, &s, NULL);
        if (r >= 0 && !startswith(s, "allow"))
                return 0;
        if (r < 0 && r != -ENOENT)
                return r;
        return setgroups(0, NULL) < 0 ? -errno : 0;
}

int process_namespaces_enter(const ProcessNamespaces *ns) {
        int user_ns = ns->user_ns, r;

        assert(ns);

        if (user_ns >= 0) {
                r = is_own_user_namespace(user_ns);
                if (r < 0)
                        return r;
                if (r > 0)
                        user_ns = -1;
        }

        if (ns->pid_ns >= 0 && setns(ns->pid_ns, CLONE_NEWPID) < 0)
                return -errno;
        if (ns->mnt_ns >= 0 && setns(ns->mnt_ns, CLONE_NEWNS) < 0)
                return -errno;
        if (ns->net_ns >= 0 && setns(ns->net_ns, CLONE_NEWNET) < 0)
                return -errno;
        if (user_ns >= 0 && setns(user_ns, CLONE_NEWUSER) < 0)
                return -errno;

        if (ns->root >= 0) {
                if (fchdir(ns->root) < 0)
                        return -errno;
                if (chroot(".") < 0)
                        return -errno;
        }

        if (user_ns < 0)
                return 0;

        r = drop_supplementary_groups();
        if (r < 0)
                return r;
        if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
                return -errno;
        return 0;
}
