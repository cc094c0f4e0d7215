/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The UDP and TCP sockets a DNS server of ours listens on.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "listeners.h"
#include "macro.h"

static int socket_type(int fd) {
        int type;
        socklen_t len = sizeof(type);

        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
                return -errno;
        return type;
}

int listeners_from_activation(Listeners *ret) {
        Listeners l = { .udp_fd = -1, .tcp_fd = -1 };
        int n;

        assert(ret);

        n = sd_listen_fds(true);
        if (n <= 0)
                return n;
        for (int fd = SD_LISTEN_FDS_START; fd < SD_LISTEN_FDS_START + n; fd++) {
                int type = socket_type(fd);
                int *slot = type == SOCK_DGRAM ? &l.udp_fd : type == SOCK_STREAM ? &l.tcp_fd : NULL;

                if (!slot || *slot >= 0) {
                        listeners_close(&l);
                        return -EBADF; /* a third socket, or one of the wrong kind */
                }
                (void) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
                (void) fcntl(fd, F_SETFD, FD_CLOEXEC);
                *slot = fd;
        }
        if (l.udp_fd < 0 || l.tcp_fd < 0) {
                listeners_close(&l);
                return -EBADF;
        }
        *ret = l;
        return 1;
}

static int bind_one(const SocketAddress *a, int type) {
        _cleanup_close_ int fd = -1;
        int one = 1;

        fd = socket(a->sa.sa_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0)
                return -errno;
        if (bind(fd, &a->sa, a->len) < 0)
                return -errno;
        if (type == SOCK_STREAM && listen(fd, SOMAXCONN) < 0)
                return -errno;
        return TAKE_FD(fd);
}

int listeners_bind(const SocketAddress *a, Listeners *ret) {
        int udp, tcp;

        assert(a);
        assert(ret);

        udp = bind_one(a, SOCK_DGRAM);
        if (udp < 0)
                return udp;
        tcp = bind_one(a, SOCK_STREAM);
        if (tcp < 0) {
                (void) close(udp);
                return tcp;
        }
        *ret = (Listeners) { .udp_fd = udp, .tcp_fd = tcp };
        return 0;
}

void listeners_close(Listeners *l) {
        assert(l);

        if (l->udp_fd >= 0)
                (void) close(l->udp_fd);
        if (l->tcp_fd >= 0)
                (void) close(l->tcp_fd);
        l->udp_fd = l->tcp_fd = -1;
}
