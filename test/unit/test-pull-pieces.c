/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urlboot-pull's small pieces: the pipe between downloader and unpacker (ring-buffer.c), the stream
 * digest (digest.c), progress's words (progress.c), the Connection header's options (http-headers.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "digest.h"
#include "http-headers.h"
#include "progress.h"
#include "pull-advice.h"
#include "pull-option.h"
#include "ring-buffer.h"
#include "tests.h"

enum { STREAM = 1 << 20 };

static unsigned char byte_at(size_t i) {
        return (unsigned char) ((i * 2654435761u) >> 13);
}

/* Writes STREAM bytes in odd-sized pieces, then closes with the status it was given. */
static void *writer(void *arg) {
        RingBuffer *b = ((void **) arg)[0];
        int status = *(int *) ((void **) arg)[1];
        unsigned char piece[777];
        size_t at = 0;

        while (at < STREAM) {
                size_t n = STREAM - at < sizeof piece ? STREAM - at : sizeof piece;

                for (size_t i = 0; i < n; i++)
                        piece[i] = byte_at(at + i);
                if (ring_buffer_write(b, piece, n) < 0)
                        return NULL;
                at += n;
        }
        ring_buffer_close(b, status);
        return NULL;
}

/* A reader slower and smaller than the buffer: every byte arrives once, in order, then the writer's status. */
static long read_stream(int status, size_t *ret_bytes) {
        RingBuffer *b;
        void *arg[2];
        pthread_t t;
        unsigned char buf[301];
        size_t at = 0;
        long r;

        ASSERT_OK(ring_buffer_new(4096, &b));
        arg[0] = b;
        arg[1] = &status;
        ASSERT_EQ(pthread_create(&t, NULL, writer, arg), 0);
        while ((r = ring_buffer_read(b, buf, sizeof buf)) > 0) {
                for (long i = 0; i < r; i++)
                        ASSERT_EQ(buf[i], byte_at(at + (size_t) i));
                at += (size_t) r;
        }
        pthread_join(t, NULL);
        ring_buffer_free(b);
        *ret_bytes = at;
        return r;
}

TEST(ring_buffer_carries_a_stream_in_order) {
        size_t n;

        ASSERT_EQ(read_stream(0, &n), 0);
        ASSERT_EQ(n, STREAM);
}

TEST(ring_buffer_hands_the_writers_failure_to_the_reader) {
        size_t n;

        /* the data before the failure still arrives; then the reader sees the status, not an end */
        ASSERT_EQ(read_stream(-ECONNRESET, &n), -ECONNRESET);
        ASSERT_EQ(n, STREAM);
}

TEST(ring_buffer_abort_stops_the_writer) {
        RingBuffer *b;
        char big[8192] = { 0 };

        ASSERT_OK(ring_buffer_new(1024, &b));
        ring_buffer_abort(b, -ENOSPC);
        /* a full buffer would block the writer forever; the abort makes it return at once */
        ASSERT_EQ(ring_buffer_write(b, big, sizeof big), -ENOSPC);
        ring_buffer_abort(b, 0);
        ASSERT_EQ(ring_buffer_write(b, big, 1), -ECANCELED);
        ring_buffer_free(b);
}

TEST(digest_known_values) {
        /* FIPS 180-2's "abc" and the empty message, fed in pieces */
        Sha256 *h;
        char hex[SHA256_HEX_SIZE];

        ASSERT_OK(sha256_new(&h));
        ASSERT_OK(sha256_update(h, "a", 1));
        ASSERT_OK(sha256_update(h, "bc", 2));
        ASSERT_OK(sha256_final_hex(h, hex));
        sha256_free(h);
        ASSERT_STREQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

        ASSERT_OK(sha256_new(&h));
        ASSERT_OK(sha256_final_hex(h, hex));
        sha256_free(h);
        ASSERT_STREQ(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(progress_words) {
        char buf[32];

        ASSERT_STREQ(format_bytes(buf, sizeof buf, 0), "0 B");
        ASSERT_STREQ(format_bytes(buf, sizeof buf, 1023), "1023 B");
        ASSERT_STREQ(format_bytes(buf, sizeof buf, 1024), "1.0 KiB");
        ASSERT_STREQ(format_bytes(buf, sizeof buf, 1536ull * 1024 * 1024), "1.5 GiB");
        ASSERT_STREQ(format_bytes(buf, sizeof buf, 5ull << 50), "5120.0 TiB");
        ASSERT_EQ(progress_mode_from_string("bar"), PROGRESS_BAR);
        ASSERT_EQ(progress_mode_from_string("none"), PROGRESS_NONE);
        ASSERT_TRUE(progress_mode_from_string("fancy") < 0);
}

/* The advice's command-line words are urlboot-pull's own options (pull-option.h's table), the expression's its
 * options; URLBOOT_PULL_ADVICE=expression switches. */
TEST(advice_words) {
        char want[64];

        unsetenv("URLBOOT_PULL_ADVICE");
        snprintf(want, sizeof want, "--%s=no", pull_options[PULL_OPTION_VERIFY].name);
        ASSERT_STREQ(pull_advice(PULL_ADVICE_VERIFY_NO), want);
        snprintf(want, sizeof want, "--%s=checksum", pull_options[PULL_OPTION_VERIFY].name);
        ASSERT_STREQ(pull_advice(PULL_ADVICE_VERIFY_CHECKSUM), want);
        snprintf(want, sizeof want, "--%s=sha256:HEX", pull_options[PULL_OPTION_VERIFY].name);
        ASSERT_STREQ(pull_advice(PULL_ADVICE_PIN), want);
        snprintf(want, sizeof want, "--%s=FILE", pull_options[PULL_OPTION_KEYRING].name);
        ASSERT_STREQ(pull_advice(PULL_ADVICE_KEYRING), want);
        setenv("URLBOOT_PULL_ADVICE", "expression", 1);
        ASSERT_STREQ(pull_advice(PULL_ADVICE_VERIFY_NO), "verify=no");
        ASSERT_STREQ(pull_advice(PULL_ADVICE_PIN), "sha256=HEX");
        unsetenv("URLBOOT_PULL_ADVICE");
}

TEST(connection_close_is_an_option_of_the_list) {
        ASSERT_TRUE(http_connection_closes("close"));
        ASSERT_TRUE(http_connection_closes("Close"));
        ASSERT_TRUE(http_connection_closes("keep-alive, close"));
        ASSERT_TRUE(http_connection_closes(",\tCLOSE ,"));
        ASSERT_FALSE(http_connection_closes("keep-alive"));
        ASSERT_FALSE(http_connection_closes("closed"));
        ASSERT_FALSE(http_connection_closes("x-close, upgrade"));
        ASSERT_FALSE(http_connection_closes("close;q=1"));
        ASSERT_FALSE(http_connection_closes(""));
        ASSERT_FALSE(http_connection_closes(NULL));
}
