/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Project ID candidates: SipHash-2-4 by OpenSSL's EVP_MAC, keyed and fed as systemd v258 does.
 */
#include <assert.h>
#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "project-id.h"
#include "random-util.h"

/* v258's key for project IDs (exec-invoke.c); changing it would give every directory a new ID. */
static const uint8_t project_id_key[16] = {
        0xe1, 0x4a, 0x79, 0x9b, 0x64, 0x40, 0x41, 0x4a, 0xa8, 0x46, 0xc2, 0xf3, 0xf9, 0x19, 0x4f, 0x01,
};

int siphash24(const void *data, size_t size, const uint8_t key[16], uint64_t *ret) {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "SIPHASH", NULL);
        EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
        size_t hash_size = 8, out_size = 0;
        uint8_t out[8];
        OSSL_PARAM params[] = {
                OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &hash_size),
                OSSL_PARAM_construct_end(),
        };
        int r = -EIO;

        assert(data || size == 0);
        assert(key);
        assert(ret);

        if (ctx && EVP_MAC_init(ctx, key, 16, params) == 1 && EVP_MAC_update(ctx, data, size) == 1 &&
            EVP_MAC_final(ctx, out, &out_size, sizeof out) == 1 && out_size == sizeof out) {
                uint64_t h = 0;

                for (size_t i = 0; i < sizeof out; i++)
                        h |= (uint64_t) out[i] << (8 * i);
                *ret = h;
                r = 0;
        }
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(mac);
        return r;
}

int project_id_candidate(const char *cgroup, const char *type_name, uint32_t *ret) {
        _cleanup_free_ char *input = NULL;
        uint64_t h;
        int r;

        assert(cgroup);
        assert(type_name);
        assert(ret);

        /* No terminating NUL in the hashed bytes (v258 hashes strlen() bytes). */
        if (asprintf(&input, "%s|%s", cgroup, type_name) < 0)
                return -ENOMEM;
        r = siphash24(input, strlen(input), project_id_key, &h);
        if (r < 0)
                return r;
        *ret = project_id_from_u64(h);
        return 0;
}

int project_id_random(uint32_t *ret) {
        assert(ret);

        *ret = project_id_from_u64(random_u64_insecure());
        return 0;
}
