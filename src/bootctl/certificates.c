/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * X.509 certificates for the firmware, shim and the initrd.
 */
#include <assert.h>
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>

#include "certificates.h"
#include "fileio.h"
#include "macro.h"
#include "signature-list.h"

#define CERT_FILE_MAX (1024U * 1024U)

void cert_list_done(CertList *l) {
        assert(l);

        for (size_t i = 0; i < l->n; i++)
                free(l->der[i]);
        free(l->der);
        free(l->size);
        *l = (CertList) {};
}

static int add_x509(CertList *l, X509 *x) {
        unsigned char *der = NULL;
        uint8_t **d;
        size_t *s;
        int n = i2d_X509(x, &der);

        if (n <= 0)
                return -EBADMSG;
        d = realloc(l->der, (l->n + 1) * sizeof(*d));
        if (d)
                l->der = d;
        s = realloc(l->size, (l->n + 1) * sizeof(*s));
        if (s)
                l->size = s;
        if (!d || !s) {
                OPENSSL_free(der);
                return -ENOMEM;
        }
        /* our allocator owns what the list keeps */
        l->der[l->n] = malloc((size_t) n);
        if (!l->der[l->n]) {
                OPENSSL_free(der);
                return -ENOMEM;
        }
        memcpy(l->der[l->n], der, (size_t) n);
        l->size[l->n++] = (size_t) n;
        OPENSSL_free(der);
        return 0;
}

int cert_list_add_file(CertList *l, const char *path) {
        _cleanup_free_ char *data = NULL;
        size_t size, before = l->n;
        const unsigned char *p;
        BIO *bio;
        X509 *x;
        int r = 0;

        assert(l);
        assert(path);

        r = read_full_file(path, CERT_FILE_MAX, &data, &size);
        if (r < 0)
                return r;
        bio = BIO_new_mem_buf(data, (int) size);
        if (!bio)
                return -ENOMEM;
        while (r >= 0 && (x = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
                r = add_x509(l, x);
                X509_free(x);
        }
        BIO_free(bio);
        if (r < 0)
                return r;
        if (l->n > before)
                return 0;
        /* not PEM: one DER certificate */
        p = (const unsigned char *) data;
        x = d2i_X509(NULL, &p, (long) size);
        if (!x)
                return -EBADMSG;
        r = add_x509(l, x);
        X509_free(x);
        return r;
}

int cert_list_to_esl(const CertList *l, const uint8_t owner[16], uint8_t **ret, size_t *ret_size) {
        size_t total = 0, off = 0;
        uint8_t *buf;

        assert(l);
        assert(owner);
        assert(ret);
        assert(ret_size);

        for (size_t i = 0; i < l->n; i++)
                total += esl_x509_size(l->size[i]);
        buf = malloc(total ? total : 1);
        if (!buf)
                return -ENOMEM;
        for (size_t i = 0; i < l->n; i++) {
                int r = esl_x509_write(buf + off, l->der[i], l->size[i], owner);
                if (r < 0) {
                        free(buf);
                        return r;
                }
                off += esl_x509_size(l->size[i]);
        }
        *ret = buf;
        *ret_size = total;
        return 0;
}

int cert_list_to_pem(const CertList *l, char **ret, size_t *ret_size) {
        BIO *bio = BIO_new(BIO_s_mem());
        char *mem;
        long n;
        int r = 0;

        assert(l);
        assert(ret);
        assert(ret_size);

        if (!bio)
                return -ENOMEM;
        for (size_t i = 0; i < l->n && r >= 0; i++) {
                const unsigned char *p = l->der[i];
                X509 *x = d2i_X509(NULL, &p, (long) l->size[i]);

                if (!x || !PEM_write_bio_X509(bio, x))
                        r = -EBADMSG;
                X509_free(x);
        }
        n = BIO_get_mem_data(bio, &mem);
        if (r >= 0 && !(*ret = strndup(mem, (size_t) n)))
                r = -ENOMEM;
        if (r >= 0)
                *ret_size = (size_t) n;
        BIO_free(bio);
        return r;
}

void cert_fingerprint(const CertList *l, size_t i, char ret[65]) {
        unsigned char d[32];
        unsigned n = 0;

        assert(l);
        assert(ret);

        EVP_Digest(l->der[i], l->size[i], d, &n, EVP_sha256(), NULL);
        for (unsigned k = 0; k < 32; k++)
                snprintf(ret + 2 * k, 3, "%02x", d[k]);
}
