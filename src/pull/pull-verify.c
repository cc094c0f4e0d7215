/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the served file must hash to: a pinned digest, or SHA256SUMS / FILE.sha256 beside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksums.h"
#include "http-source.h"
#include "import-types.h"
#include "log.h"
#include "macro.h"
#include "pull-verify.h"
#include "string-util.h"
#include "url.h"
#include "verify-signature.h"

#define BACKOFF_MAX_SEC 30

typedef struct Buffer {
        char *data;
        size_t size;
} Buffer;

static int buffer_append(const void *data, size_t size, void *userdata) {
        Buffer *b = userdata;
        char *n;

        if (b->size + size > 1024 * 1024)
                return -EFBIG;
        n = realloc(b->data, b->size + size + 1);
        if (!n)
                return -ENOMEM;
        memcpy(n + b->size, data, size);
        b->data = n;
        b->size += size;
        b->data[b->size] = 0;
        return 0;
}

/* Fetches a small file beside the image, with the same retry rules. */
static int fetch_beside(Attempt *a, const char *name, Buffer *ret) {
        _cleanup_free_ char *url = NULL;
        char why[512];
        int r;

        r = url_change_last_component(a->url, name, &url);
        if (r < 0)
                return r;
        for (unsigned tries = 0;; tries++) {
                HttpRequest req = { .url = url, .stall_timeout = a->o->stall_timeout, .ca_file = a->o->ca_file,
                                    .cancel = a->o->cancel, .on_data = buffer_append, .userdata = ret };
                HttpResponse resp;

                free(ret->data);
                *ret = (Buffer) {};
                r = http_fetch(&req, &resp, why, sizeof why);
                http_response_done(&resp);
                if (r != -EAGAIN || tries >= a->o->retries)
                        break;
                if (!attempt_sleep(a->o, MIN(1u << tries, (unsigned) BACKOFF_MAX_SEC)))
                        return -EINTR;
        }
        if (r < 0 && r != -ENOENT)
                log_debug("Fetching %s failed: %s", url, why);
        return r;
}

int pull_load_expected_digest(Attempt *a) {
        _cleanup_free_ char *file = NULL;
        Buffer sums = {}, sig = {};
        const char *sums_name = "SHA256SUMS";
        int r;

        if (a->o->sha256) {
                snprintf(a->expected, sizeof a->expected, "%s", a->o->sha256);
                return 0;
        }
        if (a->o->verify == IMPORT_VERIFY_NO)
                return 0;

        r = url_last_component(a->url, &file);
        if (r < 0)
                return attempt_fail(a, r, "Cannot tell the file name of %s for its checksum.", a->url);

        r = fetch_beside(a, "SHA256SUMS", &sums);
        if (r == -ENOENT) {
                _cleanup_free_ char *alt = NULL;
                if (asprintf(&alt, "%s.sha256", file) < 0)
                        return -ENOMEM;
                sums_name = "FILE.sha256";
                r = fetch_beside(a, alt, &sums);
                /* FILE.sha256 may hold just the digest. */
                if (r >= 0 && sums.size >= 64 && sha256_hex_is_valid(strndupa(sums.data, 64)) &&
                    (sums.size == 64 || sums.data[64] == '\n' || sums.data[64] == ' ')) {
                        memcpy(a->expected, sums.data, 64);
                        a->expected[64] = 0;
                        for (int i = 0; i < 64; i++)
                                if (a->expected[i] >= 'A' && a->expected[i] <= 'F')
                                        a->expected[i] += 'a' - 'A';
                        goto check_signature;
                }
        }
        if (r < 0) {
                free(sums.data);
                return attempt_fail(a, r, "Cannot fetch SHA256SUMS or %s.sha256 beside %s (%s). Publish one, pin the digest "
                            "with sha256=, or use verify=no.", file, a->url, strerror(-r));
        }
        r = checksums_find(sums.data, sums.size, file, a->expected);
        if (r < 0) {
                free(sums.data);
                return attempt_fail(a, -EBADMSG, "%s beside %s does not list '%s'.", sums_name, a->url, file);
        }

check_signature:
        if (a->o->verify == IMPORT_VERIFY_SIGNATURE) {
                const char *sig_name = streq(sums_name, "SHA256SUMS") ? "SHA256SUMS.gpg" : NULL;
                _cleanup_free_ char *alt = NULL;

                if (!sig_name) {
                        if (asprintf(&alt, "%s.sha256.gpg", file) < 0) {
                                free(sums.data);
                                return -ENOMEM;
                        }
                        sig_name = alt;
                }
                r = fetch_beside(a, sig_name, &sig);
                if (r == -ENOENT && streq(sig_name, "SHA256SUMS.gpg"))
                        r = fetch_beside(a, sig_name = "SHA256SUMS.asc", &sig);
                if (r < 0) {
                        free(sums.data);
                        return attempt_fail(a, r, "Cannot fetch the signature %s beside %s (%s). Use verify=checksum to "
                                    "skip signatures.", sig_name, a->url, strerror(-r));
                }
                r = verify_signature(sums.data, sums.size, sig.data, sig.size, a->o->keyring, a->error, a->error_size);
                free(sig.data);
                if (r < 0) {
                        free(sums.data);
                        return r;
                }
        }
        free(sums.data);
        return 0;
}
