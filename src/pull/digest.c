/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SHA-256 of a stream, with OpenSSL.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include <stdio.h>

#include "digest.h"

struct Sha256 {
        EVP_MD_CTX *ctx;
};

int sha256_new(Sha256 **ret) {
        Sha256 *h = malloc(sizeof *h);

        assert(ret);

        if (!h)
                return -ENOMEM;
        h->ctx = EVP_MD_CTX_new();
        if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1) {
                EVP_MD_CTX_free(h->ctx);
                free(h);
                return -ENOMEM;
        }
        *ret = h;
        return 0;
}

void sha256_free(Sha256 *h) {
        if (!h)
                return;
        EVP_MD_CTX_free(h->ctx);
        free(h);
}

int sha256_update(Sha256 *h, const void *data, size_t size) {
        assert(h);
        assert(data || size == 0);

        return EVP_DigestUpdate(h->ctx, data, size) == 1 ? 0 : -EIO;
}

int sha256_final_hex(Sha256 *h, char hex[SHA256_HEX_SIZE]) {
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned n = 0;

        assert(h);
        assert(hex);

        if (EVP_DigestFinal_ex(h->ctx, md, &n) != 1 || n != 32)
                return -EIO;
        for (unsigned i = 0; i < n; i++)
                snprintf(hex + 2 * i, 3, "%02x", md[i]);
        return 0;
}
