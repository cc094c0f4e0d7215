/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The classic password agent protocol.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ask-file.h"
#include "mkdir.h"
#include "passwords.h"
#include "path-util.h"
#include "random-util.h"
#include "varlink-connection.h"

/* v258 reads one datagram into LINE_MAX + 1 bytes; longer ones are ignored. */
#define REPLY_MAX (2048 + 1)

/* The answer socket "sck.<hex>", only for us (umask 0177), passing the sender's credentials. */
static int create_socket(const char *directory, char **ret_path) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        _cleanup_free_ char *path = NULL;
        _cleanup_close_ int fd = -1;
        int one = 1, r = 0;
        mode_t old;

        if (asprintf(&path, "%s/sck.%" PRIx64, directory, random_u64_insecure()) < 0)
                return -ENOMEM;
        if (strlen(path) >= sizeof(sa.sun_path))
                return -ENAMETOOLONG;
        strcpy(sa.sun_path, path);

        fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
                return -errno;
        old = umask(0177);
        if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0)
                r = -errno;
        umask(old);
        if (r < 0)
                return r;
        if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
                r = -errno;
                (void) unlink(path);
                return r;
        }
        *ret_path = TAKE_PTR(path);
        return TAKE_FD(fd);
}

/* Writes the [Ask] section under a hidden name, then renames it to ask.<number>. */
static int write_ask_file(const AskQuestion *q, const char *socket_path, char **ret_path) {
        _cleanup_free_ char *tmp = NULL, *final = NULL;
        _cleanup_fclose_ FILE *f = NULL;
        int fd, r;

        if (asprintf(&tmp, "%s/.#ask.XXXXXX", q->directory) < 0 ||
            asprintf(&final, "%s/ask.%" PRIu64, q->directory, random_u64_insecure()) < 0)
                return -ENOMEM;
        fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return -errno;
        f = fdopen(fd, "w");
        if (!f) {
                r = -errno;
                (void) close(fd);
                (void) unlink(tmp);
                return r;
        }

        /* The keys and their order are v258's; 252's agents read Socket, NotAfter, Message, PID,
         * AcceptCached, Echo and Silent, and ignore the rest. */
        fprintf(f, "[Ask]\nPID=%d\nSocket=%s\nAcceptCached=%d\nEcho=%d\nNotAfter=%" PRIu64 "\nSilent=%d\n",
                (int) getpid(), socket_path, q->accept_cached, q->echo == ASK_ECHO_ON, q->not_after,
                q->echo == ASK_ECHO_OFF);
        if (q->message)
                fprintf(f, "Message=%s\n", q->message);
        if (q->icon)
                fprintf(f, "Icon=%s\n", q->icon);
        if (q->id)
                fprintf(f, "Id=%s\n", q->id);

        if (fchmod(fileno(f), 0644) < 0 || fflush(f) != 0 || ferror(f)) {
                r = errno > 0 ? -errno : -EIO;
                (void) unlink(tmp);
                return r;
        }
        if (rename(tmp, final) < 0) {
                r = -errno;
                (void) unlink(tmp);
                return r;
        }
        *ret_path = TAKE_PTR(final);
        return 0;
}

/* One datagram: 1 with passwords, 0 to ignore it, -ECANCELED for "-", errno. */
static int read_answer(int fd, char ***ret) {
        union {
                struct cmsghdr cmsghdr;
                uint8_t buf[CMSG_SPACE(sizeof(struct ucred))];
        } control;
        char buf[REPLY_MAX];
        struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
        struct msghdr mh = {
                .msg_iov = &iov,
                .msg_iovlen = 1,
                .msg_control = &control,
                .msg_controllen = sizeof(control),
        };
        struct ucred *cred = NULL;
        ssize_t n;
        int r = 0;

        n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (n < 0)
                return errno == EAGAIN || errno == EINTR ? 0 : -errno;
        if ((mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || n == 0)
                goto ignore;

        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
                    c->cmsg_len == CMSG_LEN(sizeof(struct ucred)))
                        cred = (struct ucred *) CMSG_DATA(c);
        /* Only root or our own user may answer. */
        if (!cred || (cred->uid != 0 && cred->uid != getuid()))
                goto ignore;

        if (buf[0] == '-')
                r = -ECANCELED;
        else if (buf[0] == '+') {
                /* A bare "+" is the empty password. */
                r = n == 1 ? passwords_from_nulstr("", 1, ret) : passwords_from_nulstr(buf + 1, (size_t) n - 1, ret);
                if (r == 0)
                        r = passwords_count(*ret) > 0 ? 1 : 0;
        }

ignore:
        explicit_bzero(buf, sizeof(buf));
        return r;
}

/* Blocks SIGINT and SIGTERM and gives a descriptor that reports them, so a signal ends the wait
 * with EINTR rather than killing the process with the ask file left behind. */
static int signal_fd_open(sigset_t *ret_old) {
        sigset_t mask;
        int fd;

        sigemptyset(&mask);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGTERM);
        if (sigprocmask(SIG_BLOCK, &mask, ret_old) < 0)
                return -errno;
        fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
        if (fd < 0) {
                int r = -errno;

                (void) sigprocmask(SIG_SETMASK, ret_old, NULL);
                return r;
        }
        return fd;
}

static int wait_for_answer(const AskQuestion *q, int sock, int sigfd, int inotify_fd, char ***ret) {
        enum { POLL_SOCKET, POLL_SIGNAL, POLL_HUP, POLL_INOTIFY };
        struct pollfd p[4] = {
                [POLL_SOCKET] = { .fd = sock, .events = POLLIN },
                [POLL_SIGNAL] = { .fd = sigfd, .events = POLLIN },
                [POLL_HUP] = { .fd = q->hup_fd, .events = 0 }, /* POLLHUP is always reported */
                [POLL_INOTIFY] = { .fd = inotify_fd, .events = POLLIN },
        };

        for (;;) {
                int r, timeout = varlink_poll_timeout_ms(q->not_after);

                if (timeout == 0)
                        return -ETIME;
                r = poll(p, 4, timeout);
                if (r < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (r == 0)
                        continue; /* the deadline check above decides */

                if (p[POLL_SIGNAL].revents & POLLIN) {
                        struct signalfd_siginfo si;

                        /* Taken off the queue, so it does not kill us once unblocked: the
                         * caller still answers EINTR. */
                        (void) read(sigfd, &si, sizeof(si));
                        return -EINTR;
                }
                if (p[POLL_HUP].revents & (POLLHUP | POLLERR))
                        return -ECONNRESET;
                if (p[POLL_INOTIFY].revents & POLLIN) {
                        char buf[4096];

                        while (read(inotify_fd, buf, sizeof(buf)) > 0)
                                ;
                        r = q->check_cache(q->userdata, ret);
                        if (r != -ENOKEY)
                                return r;
                }
                if (p[POLL_SOCKET].revents & POLLIN) {
                        r = read_answer(sock, ret);
                        if (r != 0)
                                return r < 0 ? r : 0;
                } else if (p[POLL_SOCKET].revents)
                        return -EIO;
        }
}

int ask_file_query(const AskQuestion *q, char ***ret) {
        _cleanup_free_ char *socket_path = NULL, *ask_path = NULL;
        _cleanup_close_ int sock = -1, sigfd = -1, inotify_fd = -1;
        sigset_t old_mask;
        int r;

        assert(q);
        assert(ret);

        r = mkdir_p(q->directory, 0755);
        if (r < 0)
                return r;

        if (q->check_cache) {
                inotify_fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
                if (inotify_fd < 0)
                        return -errno;
                if (inotify_add_watch(inotify_fd, q->directory, IN_ONLYDIR | IN_ATTRIB) < 0)
                        return -errno;
        }

        sigfd = signal_fd_open(&old_mask);
        if (sigfd < 0)
                return sigfd;

        sock = create_socket(q->directory, &socket_path);
        if (sock < 0) {
                r = sock;
                goto finish;
        }
        r = write_ask_file(q, socket_path, &ask_path);
        if (r < 0)
                goto finish;

        r = wait_for_answer(q, sock, sigfd, inotify_fd, ret);

finish:
        /* Withdraw the question first: agents stop prompting when the file goes. */
        if (ask_path)
                (void) unlink(ask_path);
        if (socket_path)
                (void) unlink(socket_path);
        (void) sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return r;
}

int ask_file_touch_directory(const char *directory) {
        int r = mkdir_p(directory, 0755);

        assert(directory);

        if (r < 0)
                return r;
        return utimensat(AT_FDCWD, directory, NULL, 0) < 0 ? -errno : 0;
}
