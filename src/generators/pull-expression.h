/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Pull expressions: "OPTIONS:LOCAL:REMOTE" from rd.systemd.pull= / rd.urlboot.pull= and the
 * import.pull credential.
 *
 * OPTIONS and LOCAL end at the next ":" that is not escaped with a backslash (the backslash is
 * removed); REMOTE is the verbatim rest and may contain ":". OPTIONS is a comma list:
 *   raw|tar  machine|portable|sysext|confext  ro|rw  blockdev  bootorigin  runtime=BOOL
 *   verify=no|checksum|signature  and urlboot's own  sha256=HEX  mirror=URL (repeatable)  lazy  serve
 * "lazy" (raw + blockdev only) attaches the remote image at once and copies it in the background
 * (urlboot-lazy); its blocks are verified by dm-verity, so it takes neither sha256= nor checksum files.
 * Unlike systemd v258, which warns and carries on, an unknown or malformed option rejects the whole
 * expression: a typo must not silently boot something else.
 */
#pragma once

#include <stdbool.h>

#include "import-types.h"

typedef struct PullExpression {
        ImageType type;
        ImageClass class;
        bool read_only;
        bool blockdev;
        bool bootorigin;
        bool lazy;              /* attach the remote image, copy it in the background (urlboot-lazy) */
        bool serve;             /* keep the file as downloaded, for urlboot-serve */
        int runtime;            /* -1: the default (in the initrd: yes) */
        ImportVerify verify;
        bool verify_explicit;
        char *sha256;           /* lowercase hex digest of the served file, or NULL */
        char **mirrors;         /* fallback URLs, tried in order */
        char *local;            /* NULL: derived from the URL */
        char *remote;

        /* Filled in by pull_expression_resolve() */
        char *url;              /* absolute URL to fetch */
        const char *image_root; /* the class's directory: /run/machines, /var/lib/extensions, ... (static) */
        char *image_path;       /* final path: <root>/<local>.raw or <root>/<local> */
} PullExpression;

PullExpression *pull_expression_free(PullExpression *e);

static inline void pull_expression_freep(PullExpression **e) {
        pull_expression_free(*e);
}
#define _cleanup_pull_expression_ __attribute__((cleanup(pull_expression_freep)))

/**
 * Parse an expression.
 * @v error  on failure, a one-line reason (e.g. "unknown option 'foo'"; error-buf.h)
 * @ret      0, -EINVAL for a malformed expression, -ENOMEM
 */
int pull_expression_parse(const char *s, PullExpression **ret, char *error, size_t error_size);

/**
 * Work out the URL, the local name and the final path.
 * @v stub_url    StubDeviceURL for bootorigin expressions (the caller skips those without one)
 * @v initrd      whether runtime defaults to yes
 * @v error     on failure, a one-line reason
 * @ret         0, -EINVAL, -ENOMEM
 */
int pull_expression_resolve(PullExpression *e, const char *stub_url, bool initrd, char *error, size_t error_size);
