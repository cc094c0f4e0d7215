/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for the identity of a socket's peer: the start time parser and the checks after a decision. */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "process-identity.h"
#include "tests.h"

/* Field 22 by hand: after the last ')', field 3 is the first. */
static uint64_t field22(const char *text) {
        const char *p = strrchr(text, ')') + 2;
        unsigned long long v;

        for (int f = 3; f < 22; f++)
                p = strchr(p, ' ') + 1;
        ASSERT_EQ(sscanf(p, "%llu", &v), 1);
        return v;
}

TEST(start_time_is_field_22) {
        char line[] = "4242 (a) b) c 1 2 3) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654321 20 21 22\n";
        uint64_t t;

        /* The command name holds ") " twice: only the last ")" ends it. */
        ASSERT_OK(proc_stat_start_time(line, &t));
        ASSERT_EQ(t, 987654321);
        ASSERT_EQ(proc_stat_start_time("4242 (x) S 1 2 3", &t), -EIO);
        ASSERT_EQ(proc_stat_start_time("no parenthesis", &t), -EIO);
        ASSERT_EQ(proc_stat_start_time("1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 -5 1\n", &t), -EIO);
}

TEST(start_time_matches_proc_self_stat) {
        _cleanup_free_ char *stat = NULL;
        uint64_t t;

        /* A name with a space and a parenthesis, as a hostile caller would choose. */
        ASSERT_OK(prctl(PR_SET_NAME, "evil) 1 2", 0, 0, 0));
        ASSERT_OK(read_full_file("/proc/self/stat", 4096, &stat, NULL));
        ASSERT_OK(process_start_time(getpid(), &t));
        ASSERT_EQ(t, field22(stat));
        ASSERT_TRUE(t > 0); /* field 21 (itrealvalue) is always 0 */
}

/* socketpair() records its creator as both ends' peer: this process, alive. */
static void identity_of_self(bool use_pidfd) {
        ProcessIdentity id;
        int sv[2];

        ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
        ASSERT_OK(process_identity_from_socket(sv[0], use_pidfd, &id));
        ASSERT_EQ(id.pid, getpid());
        ASSERT_EQ(id.uid, geteuid());
        ASSERT_TRUE(id.known);
        ASSERT_TRUE(use_pidfd || id.pidfd < 0);
        ASSERT_OK(process_identity_verify(&id));
        /* Another start time stands for the PID reused by another process, another UID for a
         * process that changed hands. */
        id.start_time++;
        ASSERT_EQ(process_identity_verify(&id), -ESRCH);
        id.start_time--;
        id.uid++;
        ASSERT_EQ(process_identity_verify(&id), -EPERM);
        id.uid--;
        id.known = false;
        ASSERT_EQ(process_identity_verify(&id), -ENOKEY);
        process_identity_done(&id);
        ASSERT_EQ(id.pidfd, -1);
        (void) close(sv[0]);
        (void) close(sv[1]);
}

TEST(identity_with_pidfd) {
        identity_of_self(true);
}

TEST(identity_without_pidfd) {
        identity_of_self(false);
}

/* A PID whose process is gone is not the one that connected. */
TEST(exited_process_is_not_the_same) {
        ProcessIdentity id;
        int sv[2], status;
        pid_t child;

        child = fork();
        ASSERT_TRUE(child >= 0);
        if (child == 0)
                _exit(0);
        ASSERT_EQ(waitpid(child, &status, 0), child);
        ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
        ASSERT_OK(process_identity_from_socket(sv[0], false, &id));
        id.pid = child;
        ASSERT_EQ(process_identity_verify(&id), -ESRCH);
        process_identity_done(&id);
        (void) close(sv[0]);
        (void) close(sv[1]);
}
