/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One DNS query over UDP to one server, on a socket of its own.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "macro.h"
#include "udp-exchange.h"

struct UdpExchange {
        int fd;
        uint16_t id;
        bool done;
        sd_event_source *io, *timer;
        udp_exchange_done_t callback;
        void *userdata;
};

static void exchange_stop(UdpExchange *x) {
        x->done = true;
        x->io = sd_event_source_disable_unref(x->io);
        x->timer = sd_event_source_disable_unref(x->timer);
        if (x->fd >= 0)
                (void) close(x->fd);
        x->fd = -1;
}

void udp_exchange_free(UdpExchange *x) {
        if (!x)
                return;
        exchange_stop(x);
        free(x);
}

static int on_reply(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        static uint8_t buf[65536];
        UdpExchange *x = userdata;
        ssize_t n;

        n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0) {
                if (errno == EAGAIN || errno == EINTR)
                        return 0;
                exchange_stop(x);
                x->callback(x, -errno, NULL, 0, x->userdata);
                return 0;
        }
        /* Someone else's ID (a late reply to an earlier query on a reused port): not ours. */
        if (n < 2 || (uint16_t) (buf[0] << 8 | buf[1]) != x->id)
                return 0;
        exchange_stop(x);
        x->callback(x, 0, buf, (size_t) n, x->userdata);
        return 0;
}

static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata) {
        UdpExchange *x = userdata;

        exchange_stop(x);
        x->callback(x, -ETIMEDOUT, NULL, 0, x->userdata);
        return 0;
}

int udp_exchange_start(sd_event *e, const SocketAddress *server, const uint8_t *query, size_t size,
                       uint64_t timeout_usec, udp_exchange_done_t done, void *userdata, UdpExchange **ret) {
        UdpExchange *x;
        struct timespec ts;
        int r;

        assert(e);
        assert(server);
        assert(query || size == 0);
        assert(ret);

        if (size < 2)
                return -EINVAL;
        x = calloc(1, sizeof(UdpExchange));
        if (!x)
                return -ENOMEM;
        *x = (UdpExchange) {
                .fd = -1,
                .id = (uint16_t) (query[0] << 8 | query[1]),
                .callback = done,
                .userdata = userdata,
        };

        x->fd = socket(server->sa.sa_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (x->fd < 0 || connect(x->fd, &server->sa, server->len) < 0 || send(x->fd, query, size, 0) < 0) {
                r = -errno;
                udp_exchange_free(x);
                return r;
        }

        (void) clock_gettime(CLOCK_MONOTONIC, &ts);
        r = sd_event_add_io(e, &x->io, x->fd, EPOLLIN, on_reply, x);
        if (r >= 0)
                r = sd_event_add_time(e, &x->timer, CLOCK_MONOTONIC,
                                      (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000ULL + timeout_usec,
                                      0, on_timeout, x);
        if (r < 0) {
                udp_exchange_free(x);
                return r;
        }
        *ret = x;
        return 0;
}
