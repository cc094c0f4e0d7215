/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Varlink framing: a byte stream cut into NUL-terminated messages.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "varlink-frame.h"

void varlink_frame_init(VarlinkFrame *f, size_t max) {
        assert(f);

        *f = (VarlinkFrame) { .max = max > 0 ? max : VARLINK_BUFFER_MAX };
}

void varlink_frame_done(VarlinkFrame *f) {
        assert(f);

        if (f->buf) {
                explicit_bzero(f->buf, f->allocated);
                free(f->buf);
        }
        varlink_frame_init(f, f->max);
}

int varlink_frame_next(VarlinkFrame *f, char **ret, size_t *ret_len) {
        size_t pending = f->end - f->start;
        char *nul;

        assert(f);
        assert(ret);
        assert(ret_len);

        if (pending == 0)
                return 0;
        /* Only the bytes that arrived since the last look need scanning: big messages read in
         * many small pieces stay linear. */
        nul = memchr(f->buf + f->start + f->scanned, 0, pending - f->scanned);
        if (!nul) {
                f->scanned = pending;
                return pending >= f->max ? -EMSGSIZE : 0;
        }

        *ret = f->buf + f->start;
        *ret_len = (size_t) (nul - *ret);
        f->start += *ret_len + 1;
        f->scanned = 0;
        return 1;
}

/* Moves the pending bytes to the front and wipes what they leave behind. */
static void frame_compact(VarlinkFrame *f) {
        size_t pending = f->end - f->start;

        if (f->start == 0)
                return;
        memmove(f->buf, f->buf + f->start, pending);
        explicit_bzero(f->buf + pending, f->end - pending);
        f->start = 0;
        f->end = pending;
}

/* Grows to at least size bytes by copying, so the old block can be wiped (realloc would leave
 * a copy of any password behind in freed memory). */
static int frame_grow(VarlinkFrame *f, size_t size) {
        size_t n = f->allocated > 0 ? f->allocated : 4096;
        char *b;

        while (n < size)
                n *= 2;
        if (n > f->max)
                n = f->max;
        b = malloc(n);
        if (!b)
                return -ENOMEM;
        if (f->buf) {
                memcpy(b, f->buf, f->end);
                explicit_bzero(f->buf, f->allocated);
                free(f->buf);
        }
        f->buf = b;
        f->allocated = n;
        return 0;
}

int varlink_frame_reserve(VarlinkFrame *f, size_t want, char **ret, size_t *ret_len) {
        size_t room;
        int r;

        assert(f);
        assert(ret);
        assert(ret_len);

        frame_compact(f);
        if (f->end >= f->max)
                return -EMSGSIZE;
        if (want == 0)
                want = 1;
        if (want > f->max - f->end)
                want = f->max - f->end;
        if (f->allocated - f->end < want) {
                r = frame_grow(f, f->end + want);
                if (r < 0)
                        return r;
        }

        room = f->allocated - f->end;
        *ret = f->buf + f->end;
        *ret_len = room;
        return 0;
}

void varlink_frame_commit(VarlinkFrame *f, size_t n) {
        assert(f);

        f->end += n;
}

int varlink_frame_feed(VarlinkFrame *f, const void *data, size_t n) {
        const char *p = data;

        assert(f);
        assert(data || n == 0);

        while (n > 0) {
                char *dst;
                size_t room;
                int r;

                r = varlink_frame_reserve(f, n, &dst, &room);
                if (r < 0)
                        return r;
                if (room > n)
                        room = n;
                memcpy(dst, p, room);
                varlink_frame_commit(f, room);
                p += room;
                n -= room;
        }
        return 0;
}
