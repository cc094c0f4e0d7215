/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What a pull is asked to do (PullOptions: the image, where it goes, how it is verified, how hard to try)
 * and what it did (PullReport), shared by urlboot-pull's command line, the job and its attempts.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "http-source.h"
#include "import-types.h"
#include "progress.h"

typedef struct PullOptions {
        ImageType type;
        const char *url;
        char **mirrors;                 /* tried in order after url */
        const char *image_root;         /* absolute */
        const char *name;               /* local name: NAME.raw or NAME/ */
        ImportVerify verify;
        const char *sha256;             /* pinned digest (lowercase hex) or NULL */
        const char *keyring;            /* for verify=signature */
        const char *ca_file;
        const char *keep_download;      /* also keep the served file here (absolute), or NULL */
        bool read_only;
        bool force;
        bool allow_downgrade;           /* follow redirects from https to plain http */
        unsigned retries;               /* extra attempts per URL for passing errors */
        unsigned retry_wait_total;      /* seconds of waiting between them per URL, at most */
        HttpLimits limits;              /* when an attempt counts as stalled */
        unsigned threads;               /* xz and zstd decoder threads, 0 = one per CPU */
        uint64_t memory_budget;         /* bytes all decoders together may use, 0 = the default */
        ProgressMode progress;
        volatile sig_atomic_t *cancel;
} PullOptions;

#define PULL_RESUMES_MAX 64

typedef struct PullReport {
        char *url;                      /* the URL the image came from */
        char *path;                     /* the final path */
        uint64_t size;                  /* bytes of the served file */
        uint64_t received;              /* bytes that came over the network, repeats included */
        uint64_t image_size;            /* bytes of the image (raw: the file's size) */
        double seconds;
        char sha256[65];
        const char *compression;
        unsigned retries;
        unsigned n_resumes;
        uint64_t resumed_at[PULL_RESUMES_MAX];
        unsigned restarts;              /* the whole job began again (new mirror, file changed) */
} PullReport;

