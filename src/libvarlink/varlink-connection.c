/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One Varlink connection: blocking reads and writes of whole messages, each within its deadline.
 */
#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "varlink-connection.h"
#include "varlink-json.h"
#include "varlink-members.h"

/* sd-varlink reads in 64 KiB steps. */
#define VARLINK_READ_SIZE (64U * 1024U)

void varlink_connection_init(VarlinkConnection *c, int fd, size_t max) {
        assert(c);

        c->fd = fd;
        c->duplicate_parameter = NULL;
        varlink_frame_init(&c->input, max);
}

void varlink_connection_done(VarlinkConnection *c) {
        assert(c);

        if (c->fd >= 0)
                (void) close(c->fd);
        c->fd = -1;
        varlink_frame_done(&c->input);
        c->duplicate_parameter = mfree(c->duplicate_parameter);
}

uint64_t varlink_now_usec(void) {
        struct timespec ts;

        (void) clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * 1000000U + (uint64_t) ts.tv_nsec / 1000U;
}

int varlink_poll_timeout_ms(uint64_t deadline_usec) {
        uint64_t now, left;

        if (deadline_usec == VARLINK_INFINITY)
                return -1;
        now = varlink_now_usec();
        if (now >= deadline_usec)
                return 0;
        left = (deadline_usec - now + 999) / 1000;
        return left > INT32_MAX ? INT32_MAX : (int) left;
}

static uint64_t deadline_after(uint64_t timeout_usec) {
        uint64_t now = varlink_now_usec();

        if (timeout_usec == VARLINK_INFINITY || timeout_usec > VARLINK_INFINITY - now)
                return VARLINK_INFINITY;
        return now + timeout_usec;
}

/* Waits for input, then reads what fits into the frame. 0 at EOF, >0 bytes read. */
static int connection_fill(VarlinkConnection *c, uint64_t deadline) {
        for (;;) {
                struct pollfd p = { .fd = c->fd, .events = POLLIN };
                char *dst;
                size_t room;
                ssize_t n;
                int r;

                r = varlink_frame_reserve(&c->input, VARLINK_READ_SIZE, &dst, &room);
                if (r < 0)
                        return r;

                n = recv(c->fd, dst, room, MSG_DONTWAIT);
                if (n >= 0) {
                        varlink_frame_commit(&c->input, (size_t) n);
                        return (int) (n > 0);
                }
                if (errno == ECONNRESET || errno == EPIPE)
                        return 0;
                if (errno != EAGAIN && errno != EINTR)
                        return -errno;

                r = poll(&p, 1, varlink_poll_timeout_ms(deadline));
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r == 0)
                        return -ETIMEDOUT;
        }
}

int varlink_connection_read(VarlinkConnection *c, uint64_t timeout_usec, struct json_object **ret) {
        uint64_t deadline = deadline_after(timeout_usec);

        assert(c);
        assert(ret);

        for (;;) {
                char *text;
                size_t len;
                int r;

                r = varlink_frame_next(&c->input, &text, &len);
                if (r < 0)
                        return r;
                if (r > 0) {
                        c->duplicate_parameter = mfree(c->duplicate_parameter);
                        r = varlink_json_parse(text, len, ret);
                        if (r >= 0) {
                                r = varlink_json_duplicate_member(text, len, &c->duplicate_parameter);
                                if (r == VARLINK_DUPLICATE_IN_MESSAGE || r < 0) {
                                        c->duplicate_parameter = mfree(c->duplicate_parameter);
                                        json_object_put(*ret);
                                        *ret = NULL;
                                        r = r < 0 ? r : -EBADMSG;
                                } else if (r & VARLINK_CALL_FLAGS_REPEATED)
                                        varlink_call_fold_flags(*ret);
                        }
                        explicit_bzero(text, len);
                        return r < 0 ? r : 1;
                }

                r = connection_fill(c, deadline);
                if (r <= 0)
                        return r;
        }
}

/* Waits until the socket takes bytes again; -ETIMEDOUT once deadline has passed. */
static int wait_writable(int fd, uint64_t deadline) {
        struct pollfd p = { .fd = fd, .events = POLLOUT };
        int r = poll(&p, 1, varlink_poll_timeout_ms(deadline));

        if (r < 0)
                return errno == EINTR ? 0 : -errno;
        return r == 0 ? -ETIMEDOUT : 0;
}

/* Writes n bytes. The clock starts at the first byte the socket does not take (*deadline 0 until then)
 * and runs on over later parts of the same message. */
static int send_all(int fd, const char *p, size_t n, uint64_t timeout_usec, uint64_t *deadline) {
        while (n > 0) {
                ssize_t k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
                int r;

                if (k >= 0) {
                        p += k;
                        n -= (size_t) k;
                        continue;
                }
                if (errno == EINTR)
                        continue;
                if (errno != EAGAIN)
                        return -errno;
                if (*deadline == 0)
                        *deadline = deadline_after(timeout_usec);
                r = wait_writable(fd, *deadline);
                if (r < 0)
                        return r;
        }
        return 0;
}

int varlink_connection_send(VarlinkConnection *c, const char *text, size_t len, uint64_t timeout_usec) {
        uint64_t deadline = 0;
        int r;

        assert(c);
        assert(text || len == 0);

        r = send_all(c->fd, text, len, timeout_usec, &deadline);
        if (r < 0)
                return r;
        return send_all(c->fd, "", 1, timeout_usec, &deadline);
}
