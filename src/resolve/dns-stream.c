/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * DNS over a TCP connection: messages with a two-byte length in front.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dns-stream.h"
#include "macro.h"

struct DnsStream {
        unsigned n_ref;
        bool closed;
        int fd;
        bool connecting;
        sd_event_source *io, *idle;
        uint64_t idle_usec;
        uint64_t last_activity;  /* a whole message read, or bytes written */
        uint64_t message_start;  /* the first byte of the message being read (0: none yet) */
        const DnsStreamHandler *handler;
        void *userdata;

        uint8_t in[2 + 65535];  /* the message being read, with its length */
        size_t in_size;

        uint8_t *out;           /* framed messages not yet written */
        size_t out_size, out_allocated;
};

static void stream_unref(DnsStream *s) {
        if (--s->n_ref > 0)
                return;
        free(s->out);
        free(s);
}

static void stream_shut(DnsStream *s) {
        if (s->closed)
                return;
        s->closed = true;
        s->io = sd_event_source_disable_unref(s->io);
        s->idle = sd_event_source_disable_unref(s->idle);
        if (s->fd >= 0)
                (void) close(s->fd);
        s->fd = -1;
}

void dns_stream_close(DnsStream *s) {
        if (!s)
                return;
        stream_shut(s);
        stream_unref(s); /* the owner's reference */
}

/* Ends the stream and tells the owner, who must not call dns_stream_close() for it afterwards. */
static void stream_fail(DnsStream *s, int error) {
        if (s->closed)
                return;
        stream_shut(s);
        if (s->handler->closed)
                s->handler->closed(s, error, s->userdata);
        stream_unref(s);
}

static uint64_t now_usec(void) {
        struct timespec ts;

        (void) clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000ULL;
}

/* The one timer: the idle deadline, or the message's own when one is half read and that comes first. */
static void arm(DnsStream *s) {
        uint64_t when = s->last_activity + s->idle_usec;

        if (s->message_start > 0 && s->message_start + DNS_STREAM_MESSAGE_USEC < when)
                when = s->message_start + DNS_STREAM_MESSAGE_USEC;
        if (s->idle)
                (void) sd_event_source_set_time(s->idle, when);
}

static void touch(DnsStream *s) {
        s->last_activity = now_usec();
        arm(s);
}

uint64_t dns_stream_last_activity(const DnsStream *s) {
        assert(s);

        return s->last_activity;
}

static int update_events(DnsStream *s) {
        uint32_t events = EPOLLIN;

        if (s->connecting || s->out_size > 0)
                events |= EPOLLOUT;
        return sd_event_source_set_io_events(s->io, events);
}

static int flush_out(DnsStream *s) {
        while (s->out_size > 0) {
                ssize_t n = send(s->fd, s->out, s->out_size, MSG_NOSIGNAL | MSG_DONTWAIT);

                if (n < 0) {
                        if (errno == EAGAIN || errno == EINTR)
                                break;
                        return -errno;
                }
                memmove(s->out, s->out + n, s->out_size - (size_t) n);
                s->out_size -= (size_t) n;
                touch(s);
        }
        return update_events(s);
}

/* Reads what is there; hands over each complete message. Returns 0 on EOF. */
static int read_in(DnsStream *s) {
        for (;;) {
                size_t want = s->in_size < 2 ? 2 : 2 + (size_t) (s->in[0] << 8 | s->in[1]);
                ssize_t n;

                if (s->in_size == want && want > 2) {
                        s->in_size = 0;
                        s->message_start = 0;
                        touch(s);
                        s->handler->message(s, s->in + 2, want - 2, s->userdata);
                        if (s->closed)
                                return 1;
                        continue;
                }
                n = recv(s->fd, s->in + s->in_size, want - s->in_size, MSG_DONTWAIT);
                if (n < 0)
                        return errno == EAGAIN || errno == EINTR ? 1 : -errno;
                if (n == 0)
                        return 0;
                if (s->in_size == 0) {
                        s->message_start = now_usec();
                        arm(s);
                }
                s->in_size += (size_t) n;
                /* An empty message (length 0) is skipped: there is nothing to hand over, and it is no
                 * activity either. */
                if (s->in_size == 2 && s->in[0] == 0 && s->in[1] == 0) {
                        s->in_size = 0;
                        s->message_start = 0;
                        arm(s);
                }
        }
}

static int on_io(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        DnsStream *s = userdata;
        int r = 1;

        s->n_ref++;
        if (s->connecting && (revents & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
                int error = 0;
                socklen_t len = sizeof(error);

                if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) < 0)
                        error = errno;
                if (error) {
                        stream_fail(s, -error);
                        goto done;
                }
                s->connecting = false;
        }
        if (!s->connecting && (revents & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
                r = read_in(s);
                if (r <= 0) {
                        stream_fail(s, r);
                        goto done;
                }
        }
        if (!s->closed && !s->connecting) {
                r = flush_out(s);
                if (r < 0)
                        stream_fail(s, r);
        } else if (!s->closed)
                (void) update_events(s);
done:
        stream_unref(s);
        return 0;
}

static int on_idle(sd_event_source *source, uint64_t usec, void *userdata) {
        stream_fail(userdata, 0);
        return 0;
}

static int stream_setup(sd_event *e, int fd, bool connecting, uint64_t idle_usec, const DnsStreamHandler *h,
                        void *userdata, DnsStream **ret) {
        DnsStream *s = calloc(1, sizeof(DnsStream));
        int r;

        if (!s) {
                (void) close(fd);
                return -ENOMEM;
        }
        *s = (DnsStream) {
                .n_ref = 1,
                .fd = fd,
                .connecting = connecting,
                .idle_usec = idle_usec,
                .last_activity = now_usec(),
                .handler = h,
                .userdata = userdata,
        };
        r = sd_event_add_io(e, &s->io, fd, EPOLLIN | (connecting ? EPOLLOUT : 0), on_io, s);
        if (r >= 0)
                r = sd_event_add_time(e, &s->idle, CLOCK_MONOTONIC, s->last_activity + idle_usec, 0, on_idle, s);
        if (r < 0) {
                dns_stream_close(s);
                return r;
        }
        *ret = s;
        return 0;
}

int dns_stream_new(sd_event *e, int fd, uint64_t idle_usec, const DnsStreamHandler *h, void *userdata,
                   DnsStream **ret) {
        assert(e);
        assert(h);
        assert(ret);

        return stream_setup(e, fd, false, idle_usec, h, userdata, ret);
}

int dns_stream_connect(sd_event *e, const SocketAddress *a, uint64_t idle_usec, const DnsStreamHandler *h,
                       void *userdata, DnsStream **ret) {
        int fd;

        assert(e);
        assert(a);
        assert(h);
        assert(ret);

        fd = socket(a->sa.sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        if (connect(fd, &a->sa, a->len) < 0 && errno != EINPROGRESS) {
                int r = -errno;

                (void) close(fd);
                return r;
        }
        return stream_setup(e, fd, true, idle_usec, h, userdata, ret);
}

int dns_stream_write(DnsStream *s, const uint8_t *msg, size_t size) {
        assert(s);
        assert(msg || size == 0);

        if (s->closed)
                return -ENOTCONN;
        if (size > 65535)
                return -EMSGSIZE;
        if (s->out_size + 2 + size > DNS_STREAM_WRITE_MAX)
                return -ENOBUFS;
        if (s->out_size + 2 + size > s->out_allocated) {
                size_t a = MAX(s->out_allocated * 2, s->out_size + 2 + size);
                uint8_t *n = realloc(s->out, a);

                if (!n)
                        return -ENOMEM;
                s->out = n;
                s->out_allocated = a;
        }
        s->out[s->out_size] = (uint8_t) (size >> 8);
        s->out[s->out_size + 1] = (uint8_t) size;
        memcpy(s->out + s->out_size + 2, msg, size);
        s->out_size += 2 + size;
        return s->connecting ? update_events(s) : flush_out(s);
}
