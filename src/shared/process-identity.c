/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Who is at the other end of a Unix socket, pinned when the connection is taken.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "process-identity.h"
#include "string-util.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

/* /proc/PID/stat is one line; the command name is at most 64 bytes even when escaped. */
#define PROC_STAT_MAX 4096
#define PROC_STATUS_MAX (64U * 1024U)

int proc_stat_start_time(const char *text, uint64_t *ret) {
        const char *p;
        char *end;

        assert(text);
        assert(ret);

        /* Field 2 is "(comm)" and comm may hold anything, ")" too: the last ")" ends it. */
        p = strrchr(text, ')');
        if (!p)
                return -EIO;
        /* p is on the ")" that ends field 2; each space before a field moves one field on. */
        for (int field = 3; field <= 22; field++) {
                p = strchr(p + 1, ' ');
                if (!p)
                        return -EIO;
        }
        if (p[1] < '0' || p[1] > '9')
                return -EIO;
        errno = 0;
        unsigned long long v = strtoull(p + 1, &end, 10);
        if (errno != 0 || (*end != ' ' && *end != '\n' && *end != 0))
                return -EIO;
        *ret = v;
        return 0;
}

int process_start_time(pid_t pid, uint64_t *ret) {
        _cleanup_free_ char *text = NULL;
        char path[64];
        int r;

        assert(ret);

        (void) snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
        r = read_full_file(path, PROC_STAT_MAX, &text, NULL);
        if (r == -ENOENT)
                return -ESRCH;
        if (r < 0)
                return r;
        return proc_stat_start_time(text, ret);
}

int process_effective_uid(pid_t pid, uid_t *ret) {
        _cleanup_free_ char *text = NULL;
        unsigned long real, effective;
        const char *line;
        char path[64];
        int r;

        assert(ret);

        (void) snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
        r = read_full_file(path, PROC_STATUS_MAX, &text, NULL);
        if (r == -ENOENT)
                return -ESRCH;
        if (r < 0)
                return r;
        line = strstr(text, "\nUid:");
        if (!line || sscanf(line + 5, "%lu %lu", &real, &effective) != 2)
                return -EIO;
        *ret = (uid_t) effective;
        return 0;
}

/* Is the process behind the pidfd still running (a zombie counts: it still holds its PID)? */
static int pidfd_alive(int pidfd) {
        if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) >= 0)
                return 0;
        return errno == EPERM ? 0 : -ESRCH; /* EPERM: alive, only not ours to signal */
}

/* The start time and UID now at id->pid against those taken with the connection. */
static int check_proc(const ProcessIdentity *id) {
        uint64_t start;
        uid_t uid;
        int r;

        r = process_start_time(id->pid, &start);
        if (r < 0)
                return r == -EIO ? -ESRCH : r;
        if (start != id->start_time)
                return -ESRCH;
        r = process_effective_uid(id->pid, &uid);
        if (r < 0)
                return r == -EIO ? -ESRCH : r;
        return uid == id->uid ? 0 : -EPERM;
}

int process_identity_from_socket(int fd, bool use_pidfd, ProcessIdentity *ret) {
        ProcessIdentity id = PROCESS_IDENTITY_NULL;
        struct ucred cred;
        socklen_t n = sizeof(cred);
        uid_t uid;

        assert(fd >= 0);
        assert(ret);

        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &n) < 0)
                return -errno;
        id.pid = cred.pid;
        id.uid = cred.uid;
        id.gid = cred.gid;

        if (use_pidfd) {
                n = sizeof(id.pidfd);
                if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &id.pidfd, &n) < 0)
                        id.pidfd = -1; /* ENOPROTOOPT before 6.5; ESRCH when the peer is gone */
        }

        /* With a pidfd the process is pinned; without, the PID may already be another's: the UID
         * must still be the connecting one, and the start time read now stands for the process. */
        id.known = id.pid > 0 && (id.pidfd < 0 || pidfd_alive(id.pidfd) == 0) &&
                   process_start_time(id.pid, &id.start_time) >= 0 && process_effective_uid(id.pid, &uid) >= 0 &&
                   uid == id.uid;
        *ret = id;
        return 0;
}

int process_identity_verify(const ProcessIdentity *id) {
        int r;

        assert(id);

        if (!id->known)
                return -ENOKEY;
        if (id->pidfd >= 0) {
                r = pidfd_alive(id->pidfd);
                if (r < 0)
                        return r;
        }
        return check_proc(id);
}

void process_identity_done(ProcessIdentity *id) {
        assert(id);

        if (id->pidfd >= 0)
                (void) close(id->pidfd);
        *id = PROCESS_IDENTITY_NULL;
}
