/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Forking into the namespaces of another process.
 */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "namespace-fork.h"
#include "process-name.h"

static void reset_signals(void) {
        struct sigaction sa = { .sa_handler = SIG_DFL };
        sigset_t none;

        for (int sig = 1; sig < NSIG; sig++)
                if (sig != SIGKILL && sig != SIGSTOP)
                        (void) sigaction(sig, &sa, NULL);
        sigemptyset(&none);
        (void) sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The death signal, and that signal now if the parent is gone already (then it was never delivered). */
static void set_death_signal(int death_signal, pid_t parent) {
        pid_t ppid;

        if (prctl(PR_SET_PDEATHSIG, death_signal) < 0)
                _exit(EXIT_FAILURE);
        ppid = getppid();
        /* 0: the parent is outside our pid namespace, as the middle child is for the grandchild. */
        if (ppid != 0 && ppid != parent) {
                (void) raise(death_signal);
                _exit(EXIT_FAILURE);
        }
}

/* The child side of each fork: name and death signal. */
static void become_child(const char *name, int death_signal, pid_t parent) {
        process_name_set(name);
        set_death_signal(death_signal, parent);
}

int wait_for_child(pid_t pid, int *ret_code, int *ret_status) {
        siginfo_t si = {};

        assert(ret_code);
        assert(ret_status);

        while (waitid(P_PID, (id_t) pid, &si, WEXITED) < 0)
                if (errno != EINTR)
                        return -errno;
        *ret_code = si.si_code;
        *ret_status = si.si_status;
        return 0;
}

/* The middle child, once the grandchild is forked: it only passes the grandchild's exit status on. */
_noreturn_ static void exit_like_child(pid_t pid) {
        int code, status;

        if (wait_for_child(pid, &code, &status) < 0 || code != CLD_EXITED)
                _exit(EXIT_FAILURE);
        _exit(status);
}

int namespace_fork(const char *outer_name, const char *inner_name, const ProcessNamespaces *ns, pid_t *ret_pid) {
        sigset_t all, saved;
        pid_t parent = getpid(), pid;
        int r;

        assert(outer_name);
        assert(inner_name);
        assert(ns);
        assert(ret_pid);

        fflush(NULL);
        /* Blocked across fork(), so a signal meant for the child cannot reach it before it has
         * reset its handlers. */
        sigfillset(&all);
        if (sigprocmask(SIG_BLOCK, &all, &saved) < 0)
                return -errno;
        pid = fork();
        if (pid < 0) {
                r = -errno;
                (void) sigprocmask(SIG_SETMASK, &saved, NULL);
                return r;
        }
        if (pid > 0) {
                (void) sigprocmask(SIG_SETMASK, &saved, NULL);
                *ret_pid = pid;
                return 1;
        }

        become_child(outer_name, SIGTERM, parent);
        reset_signals();

        r = process_namespaces_enter(ns);
        if (r < 0) {
                /* systemd-analyze says nothing here either: the caller reports exit status 1. */
                log_debug_errno(r, "Failed to join namespace: %m");
                _exit(EXIT_FAILURE);
        }
        /* Becoming root in a joined user namespace changes our effective UID when its root is another
         * UID outside, and that clears the death signal: set it again, or the command would outlive us. */
        set_death_signal(SIGTERM, parent);

        parent = getpid();
        pid = fork();
        if (pid < 0)
                _exit(EXIT_FAILURE);
        if (pid > 0)
                exit_like_child(pid);

        become_child(inner_name, SIGKILL, parent);
        return 0;
}

const char *signal_name(int sig) {
        static char buf[32];
        const char *abbrev;

        if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
                (void) snprintf(buf, sizeof(buf), "SIGRTMIN+%d", sig - SIGRTMIN);
                return buf;
        }
        abbrev = sigabbrev_np(sig);
        if (abbrev) {
                (void) snprintf(buf, sizeof(buf), "SIG%s", abbrev);
                return buf;
        }
        (void) snprintf(buf, sizeof(buf), "%d", sig);
        return buf;
}
