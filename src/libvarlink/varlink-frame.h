/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Varlink framing: a byte stream cut into NUL-terminated messages.
 *
 * Bytes read from the socket are appended; complete messages are handed out one at a time, in
 * order. The buffer never holds more than its limit: a message that does not end within the
 * limit is refused (-EMSGSIZE) before anything beyond the limit is stored. Consumed bytes are
 * wiped when the buffer is compacted or freed, since messages may carry passwords.
 * No I/O happens here, so the framing is tested and fuzzed on its own.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/** sd-varlink's buffer limit per direction (v258): 16 MiB. */
#define VARLINK_BUFFER_MAX (16U * 1024U * 1024U)

typedef struct VarlinkFrame {
        char *buf;
        size_t allocated;
        size_t start;   /* first byte not yet handed out */
        size_t end;     /* one past the last byte received */
        size_t scanned; /* bytes from start known to hold no NUL */
        size_t max;     /* most bytes buffered at once: the largest message, its NUL included */
} VarlinkFrame;

/** Set up an empty frame buffer holding at most max bytes (0: VARLINK_BUFFER_MAX). */
void varlink_frame_init(VarlinkFrame *f, size_t max);

/** Wipe and free the buffer. */
void varlink_frame_done(VarlinkFrame *f);

/**
 * The next complete message.
 *
 * @ret ret      the message, NUL-terminated, valid until the next call on f
 * @ret ret_len  its length without the NUL
 * @ret          1 if a message was found, 0 if more bytes are needed,
 *               -EMSGSIZE if the pending message already fills the limit without ending
 */
int varlink_frame_next(VarlinkFrame *f, char **ret, size_t *ret_len);

/**
 * Room to receive into, after compacting.
 *
 * @v want       how much the caller would like to read (grows the buffer up to that)
 * @ret ret      where to put the bytes
 * @ret ret_len  how many fit (at least 1)
 * @ret          0, -EMSGSIZE when the limit is reached, -ENOMEM
 */
int varlink_frame_reserve(VarlinkFrame *f, size_t want, char **ret, size_t *ret_len);

/** Account for n bytes written where varlink_frame_reserve() pointed. */
void varlink_frame_commit(VarlinkFrame *f, size_t n);

/** Append bytes (reserve + copy + commit); -EMSGSIZE if they do not fit within the limit. */
int varlink_frame_feed(VarlinkFrame *f, const void *data, size_t n);

/** Bytes received but not yet handed out (a partial message). */
static inline size_t varlink_frame_pending(const VarlinkFrame *f) {
        return f->end - f->start;
}
