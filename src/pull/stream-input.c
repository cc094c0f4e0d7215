/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The reading side of a stream decoder.
 */
#include <errno.h>
#include <string.h>

#include "macro.h"
#include "stream-input.h"

long stream_input_fill(StreamInput *in) {
        long n;

        if (in->pos < in->end)
                return (long) (in->end - in->pos);
        in->pos = in->end = 0;
        if (in->prefix_left > 0) {
                n = (long) MIN(in->prefix_left, sizeof in->buf);
                memcpy(in->buf, in->prefix, (size_t) n);
                in->prefix += n;
                in->prefix_left -= (size_t) n;
        } else {
                n = in->read(in->userdata, in->buf, sizeof in->buf);
                if (n < 0)
                        return n;
        }
        in->end = (size_t) n;
        return n;
}

int stream_input_read(StreamInput *in, void *dst, uint64_t size) {
        unsigned char *p = dst;

        while (size > 0) {
                long n = stream_input_fill(in);
                size_t take;

                if (n <= 0)
                        return n < 0 ? (int) n : -EPIPE;
                take = (size_t) MIN((uint64_t) n, size);
                if (p) {
                        memcpy(p, in->buf + in->pos, take);
                        p += take;
                }
                in->pos += take;
                size -= take;
        }
        return 0;
}
