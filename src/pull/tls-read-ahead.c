/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Fewer receive calls for an https body (see tls-read-ahead.h).
 */
#include <openssl/ssl.h>

#include "tls-read-ahead.h"

/* Four full records and their framing per receive call. */
#define READ_BUFFER_SIZE (64 * 1024 + 4 * SSL3_RT_MAX_ENCRYPTED_OVERHEAD)

static CURLcode on_ssl_ctx(CURL *curl, void *ssl_ctx, void *userdata) {
        (void) curl;
        (void) userdata;
        /* The buffer is allocated at the handshake's first read: its size must be set before. */
        SSL_CTX_set_default_read_buffer_len(ssl_ctx, READ_BUFFER_SIZE);
        return CURLE_OK;
}

void tls_read_ahead_prepare(CURL *curl) {
        /* CURLE_NOT_BUILT_IN with another TLS library: nothing to prepare, and enable() does nothing. */
        (void) curl_easy_setopt(curl, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
}

void tls_read_ahead_enable(CURL *curl) {
        struct curl_tlssessioninfo *info = NULL;

        if (curl_easy_getinfo(curl, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info ||
            info->backend != CURLSSLBACKEND_OPENSSL || !info->internals)
                return; /* plain http, file:, or not OpenSSL */
        SSL_set_read_ahead(info->internals, 1);
}
