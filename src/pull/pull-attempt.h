/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One try of a pull job against one URL: the state the network side, the unpacking thread,
 * verification and placement share (pull-job.c, pull-unpack.c, pull-verify.c, pull-place.c).
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "decompress.h"
#include "digest.h"
#include "progress.h"
#include "pull-options.h"
#include "ring-buffer.h"
#include "tar-unpack.h"

typedef struct Attempt {
        const PullOptions *o;
        PullReport *report;
        const char *url;
        size_t url_index;               /* url is the image's URL (0) or mirror url_index */
        bool new_server;                /* the next answer is the first from a mirror we moved on to */
        int root_fd;                    /* the image root (not ours to close) */
        const char *final_name;         /* NAME.raw or NAME, in the image root */
        char *final_path;               /* the same as a path, for messages */
        char *tmp_name;                 /* the temporary, in the image root; NULL once placed */
        int fd;                         /* raw: the temporary file; tar: the temporary tree */
        TarRoot root;                   /* tar: what the archive said of the tree's own directory */
        int keep_fd;                    /* --keep-download: the served bytes, in a temporary beside it */
        char *keep_tmp;
        Sha256 *hash;
        RingBuffer *ring;
        pthread_t thread;
        bool thread_running;
        int unpack_result;
        bool unpack_failed;             /* the unpacker itself failed (not just saw the download end) */
        bool ring_error;                /* the unpacker got the downloader's error from the ring */
        char unpack_error[256];
        Compression compression;
        uint64_t received;              /* bytes of the served file passed on so far */
        int64_t total;
        char *validator;                /* ETag (preferred) or Last-Modified of the first answer */
        bool seen_headers;
        bool resuming;
        char expected[65];              /* the digest the served file must have, "" if none */
        Progress *progress;
        char *error;
        size_t error_size;
} Attempt;

/** error_setf() for an attempt: the one-line reason for a failure into a->error. @ret r */
int attempt_fail(Attempt *a, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Wait seconds, waking early on cancellation. @ret false if cancelled */
bool attempt_sleep(const PullOptions *o, unsigned seconds);
