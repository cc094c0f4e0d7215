/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Virtual PCRs with OpenSSL's digests.
 */
#include <assert.h>
#include <errno.h>
#include <openssl/evp.h>
#include <string.h>
#include <strings.h>

#include "macro.h"
#include "pcr-state.h"

static const struct {
        const char *name;
        uint16_t tcg_alg;
} banks[_PCR_BANK_MAX] = {
        [PCR_BANK_SHA1] = { "sha1", 0x0004 },
        [PCR_BANK_SHA256] = { "sha256", 0x000b },
        [PCR_BANK_SHA384] = { "sha384", 0x000c },
        [PCR_BANK_SHA512] = { "sha512", 0x000d },
};

static const EVP_MD *bank_md(PcrBank b) {
        switch (b) {
        case PCR_BANK_SHA1: return EVP_sha1();
        case PCR_BANK_SHA256: return EVP_sha256();
        case PCR_BANK_SHA384: return EVP_sha384();
        default: return EVP_sha512();
        }
}

const char *pcr_bank_name(PcrBank b) {
        return banks[b].name;
}

int pcr_bank_from_name(const char *name) {
        assert(name);

        for (PcrBank b = 0; b < _PCR_BANK_MAX; b++)
                if (strcasecmp(banks[b].name, name) == 0)
                        return (int) b;
        return -EINVAL;
}

size_t pcr_bank_digest_size(PcrBank b) {
        return (size_t) EVP_MD_size(bank_md(b));
}

int pcr_bank_from_tcg_alg(uint16_t alg) {
        for (PcrBank b = 0; b < _PCR_BANK_MAX; b++)
                if (banks[b].tcg_alg == alg)
                        return (int) b;
        return -EOPNOTSUPP;
}

static void md_ctx_freep(EVP_MD_CTX **c) {
        EVP_MD_CTX_free(*c);
}

int pcr_event_digest(const MeasureEvent *e, PcrBank b, uint8_t *ret) {
        _cleanup_(md_ctx_freep) EVP_MD_CTX *c = EVP_MD_CTX_new();
        static const uint8_t zeros[4096];

        assert(e);
        assert(ret);

        if (!c || EVP_DigestInit_ex(c, bank_md(b), NULL) != 1 || EVP_DigestUpdate(c, e->data, e->size) != 1)
                return -EIO;
        /* a section longer in memory than in the file: the firmware fills the rest with zeros */
        for (size_t left = e->zeros; left > 0;) {
                size_t n = MIN(left, sizeof zeros);
                if (EVP_DigestUpdate(c, zeros, n) != 1)
                        return -EIO;
                left -= n;
        }
        return EVP_DigestFinal_ex(c, ret, NULL) == 1 ? 0 : -EIO;
}

int pcr_extend_digest(PcrSet *s, unsigned pcr, PcrBank b, const uint8_t *digest) {
        _cleanup_(md_ctx_freep) EVP_MD_CTX *c = EVP_MD_CTX_new();
        size_t n = pcr_bank_digest_size(b);

        assert(s);
        assert(digest);

        if (pcr >= PCR_COUNT)
                return -ERANGE;
        if (!c || EVP_DigestInit_ex(c, bank_md(b), NULL) != 1 || EVP_DigestUpdate(c, s->value[pcr][b], n) != 1 ||
            EVP_DigestUpdate(c, digest, n) != 1 || EVP_DigestFinal_ex(c, s->value[pcr][b], NULL) != 1)
                return -EIO;
        s->touched[pcr] = true;
        return 0;
}

int pcr_extend_event(PcrSet *s, const MeasureEvent *e) {
        uint8_t digest[PCR_DIGEST_MAX];
        int r;

        assert(s);
        assert(e);

        for (PcrBank b = 0; b < _PCR_BANK_MAX; b++) {
                r = pcr_event_digest(e, b, digest);
                if (r < 0)
                        return r;
                r = pcr_extend_digest(s, e->pcr, b, digest);
                if (r < 0)
                        return r;
        }
        return 0;
}

const char *pcr_hex(const PcrSet *s, unsigned pcr, PcrBank b, char *buf) {
        static const char hex[] = "0123456789abcdef";
        size_t n = pcr_bank_digest_size(b);

        assert(s);
        assert(buf);

        for (size_t i = 0; i < n; i++) {
                buf[2 * i] = hex[s->value[pcr][b][i] >> 4];
                buf[2 * i + 1] = hex[s->value[pcr][b][i] & 15];
        }
        buf[2 * n] = 0;
        return buf;
}
