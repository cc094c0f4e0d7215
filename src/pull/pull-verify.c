/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the served file must hash to: a pinned digest, or SHA256SUMS / FILE.sha256 beside it.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksums.h"
#include "pull-advice.h"
#include "http-source.h"
#include "import-types.h"
#include "log.h"
#include "macro.h"
#include "pull-verify.h"
#include "retry-policy.h"
#include "string-util.h"
#include "url.h"
#include "verify-signature.h"

/* Files fetched beside the image are small; a server sending more is not serving checksums. */
#define BESIDE_MAX (1024 * 1024)

typedef struct Buffer {
        char *data;
        size_t size;
} Buffer;

static void buffer_done(Buffer *b) {
        free(b->data);
        *b = (Buffer) {};
}

static int buffer_append(const void *data, size_t size, void *userdata) {
        Buffer *b = userdata;
        char *n;

        if (b->size + size > BESIDE_MAX)
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

/* Fetches a small file beside the image, with the same retry rules as the image. */
static int fetch_beside(Attempt *a, const char *name, Buffer *ret) {
        RetryPolicy policy = { .max_retries = a->o->retries, .max_wait_total = a->o->retry_wait_total };
        _cleanup_free_ char *url = NULL;
        char why[512];
        int r;

        r = url_change_last_component(a->url, name, &url);
        if (r < 0)
                return r;
        for (;;) {
                HttpRequest req = { .url = url, .limits = a->o->limits, .ca_file = a->o->ca_file,
                                    .allow_downgrade = a->o->allow_downgrade, .cancel = a->o->cancel,
                                    .on_data = buffer_append, .userdata = ret };
                HttpResponse resp;
                unsigned delay;

                buffer_done(ret);
                r = http_fetch(&req, &resp, why, sizeof why);
                delay = resp.retry_after;
                http_response_done(&resp);
                if (r != -EAGAIN || !retry_policy_next(&policy, delay, &delay))
                        break;
                if (!attempt_sleep(a->o, delay))
                        return -EINTR;
        }
        if (r < 0 && r != -ENOENT)
                log_debug("Fetching %s failed: %s", url, why);
        return r;
}

/* SHA256SUMS beside the image, or else FILE.sha256; ret_name says which was found. */
static int fetch_sums(Attempt *a, const char *file, Buffer *ret, char **ret_name) {
        _cleanup_free_ char *alt = NULL;
        int r;

        r = fetch_beside(a, "SHA256SUMS", ret);
        if (r != -ENOENT) {
                *ret_name = NULL;
                return r;
        }
        if (asprintf(&alt, "%s.sha256", file) < 0)
                return -ENOMEM;
        r = fetch_beside(a, alt, ret);
        if (r >= 0)
                *ret_name = TAKE_PTR(alt);
        return r;
}

/* FILE.sha256 may hold just the digest (and a line end), or SHA256SUMS lines. */
static int digest_from_sums(const Buffer *sums, bool per_file, const char *file, char ret[65]) {
        if (per_file && sums->size >= 64 &&
            (sums->size == 64 || memchr("\r\n ", sums->data[64], 3)) && sha256_hex_normalize(sums->data, ret) >= 0)
                return 0;
        return checksums_find(sums->data, sums->size, file, ret);
}

/* SHA256SUMS.gpg (or .asc) for SHA256SUMS, FILE.sha256.gpg for FILE.sha256. */
static int check_signature(Attempt *a, const Buffer *sums, const char *per_file_name) {
        _cleanup_(buffer_done) Buffer sig = {};
        _cleanup_free_ char *alt = NULL;
        const char *sig_name = "SHA256SUMS.gpg";
        int r;

        if (per_file_name) {
                if (asprintf(&alt, "%s.gpg", per_file_name) < 0)
                        return -ENOMEM;
                sig_name = alt;
        }
        r = fetch_beside(a, sig_name, &sig);
        if (r == -ENOENT && !per_file_name)
                r = fetch_beside(a, sig_name = "SHA256SUMS.asc", &sig);
        if (r < 0)
                return attempt_fail(a, r, "Cannot fetch the signature %s beside %s (%s). Use %s to skip "
                                    "signatures.", sig_name, a->url, strerror(-r),
                                    pull_advice(PULL_ADVICE_VERIFY_CHECKSUM));
        return verify_signature(sums->data, sums->size, sig.data, sig.size, a->o->keyring, a->error, a->error_size);
}

int pull_load_expected_digest(Attempt *a) {
        _cleanup_free_ char *file = NULL, *per_file_name = NULL;
        _cleanup_(buffer_done) Buffer sums = {};
        int r;

        assert(a);

        if (a->o->sha256) {
                snprintf(a->expected, sizeof a->expected, "%s", a->o->sha256);
                return 0;
        }
        if (a->o->verify == IMPORT_VERIFY_NO)
                return 0;

        r = url_last_component(a->url, &file);
        if (r < 0)
                return attempt_fail(a, r, "Cannot tell the file name of %s for its checksum.", a->url);

        r = fetch_sums(a, file, &sums, &per_file_name);
        if (r < 0)
                return attempt_fail(a, r, "Cannot fetch SHA256SUMS or %s.sha256 beside %s (%s). Publish one, pin the "
                                    "digest with %s, or use %s.", file, a->url, strerror(-r),
                                    pull_advice(PULL_ADVICE_PIN), pull_advice(PULL_ADVICE_VERIFY_NO));

        r = digest_from_sums(&sums, per_file_name, file, a->expected);
        if (r < 0)
                return attempt_fail(a, -EBADMSG, "%s beside %s does not list '%s'.",
                                    per_file_name ?: "SHA256SUMS", a->url, file);

        if (a->o->verify == IMPORT_VERIFY_SIGNATURE)
                return check_signature(a, &sums, per_file_name);
        return 0;
}
