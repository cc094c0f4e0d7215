/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * EFI signature lists of X.509 certificates.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "signature-list.h"
#include "string-fundamental.h"

const uint8_t esl_cert_x509_guid[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
                                         0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
const uint8_t esl_owner_shim[16] = { 0x50, 0xab, 0x5d, 0x60, 0x46, 0xe0, 0x00, 0x43,
                                     0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 };
const uint8_t esl_owner_urlboot[16] = { 0x1e, 0x4d, 0x0a, 0x3c, 0x7f, 0x8b, 0x55, 0x4c,
                                        0x9a, 0x1e, 0x75, 0x72, 0x6c, 0x62, 0x6f, 0x6f };

static uint32_t le32(const uint8_t *p) {
        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v) {
        for (int i = 0; i < 4; i++)
                p[i] = (uint8_t) (v >> (8 * i));
}

size_t esl_x509_size(size_t der_size) {
        return ESL_HEADER_SIZE + ESL_OWNER_SIZE + der_size;
}

int esl_x509_write(void *out, const void *der, size_t der_size, const uint8_t owner[16]) {
        uint8_t *p = out;

        fassert(out);
        fassert(der);
        fassert(owner);

        if (der_size > UINT32_MAX - ESL_HEADER_SIZE - ESL_OWNER_SIZE)
                return -E2BIG;
        fmemcpy(p, esl_cert_x509_guid, 16);
        put_le32(p + 16, (uint32_t) esl_x509_size(der_size));       /* SignatureListSize */
        put_le32(p + 20, 0);                                        /* SignatureHeaderSize */
        put_le32(p + 24, (uint32_t) (ESL_OWNER_SIZE + der_size));   /* SignatureSize */
        fmemcpy(p + ESL_HEADER_SIZE, owner, ESL_OWNER_SIZE);
        fmemcpy(p + ESL_HEADER_SIZE + ESL_OWNER_SIZE, der, der_size);
        return 0;
}

int esl_foreach_x509(const void *data, size_t size, esl_x509_cb cb, void *userdata) {
        const uint8_t *p = data;

        fassert(data || size == 0);
        fassert(cb);

        while (size > 0) {
                uint32_t list_size, header_size, sig_size;
                size_t body;

                if (size < ESL_HEADER_SIZE)
                        return -EBADMSG;
                list_size = le32(p + 16);
                header_size = le32(p + 20);
                sig_size = le32(p + 24);
                if (list_size < ESL_HEADER_SIZE || list_size > size || header_size > list_size - ESL_HEADER_SIZE)
                        return -EBADMSG;
                body = list_size - ESL_HEADER_SIZE - header_size;
                if (sig_size <= ESL_OWNER_SIZE || body % sig_size != 0)
                        return -EBADMSG;
                if (fmemcmp(p, esl_cert_x509_guid, 16) == 0)
                        for (size_t off = ESL_HEADER_SIZE + header_size; off < list_size; off += sig_size) {
                                int r = cb(p + off + ESL_OWNER_SIZE, sig_size - ESL_OWNER_SIZE, userdata);
                                if (r != 0)
                                        return r;
                        }
                p += list_size;
                size -= list_size;
        }
        return 0;
}

typedef struct Lookup {
        const uint8_t *der;
        size_t size;
} Lookup;

static int same_certificate(const uint8_t *der, size_t size, void *userdata) {
        const Lookup *l = userdata;

        return size == l->size && fmemcmp(der, l->der, size) == 0 ? 1 : 0;
}

typedef struct Superset {
        const void *data;
        size_t size;
} Superset;

static int in_superset(const uint8_t *der, size_t size, void *userdata) {
        const Superset *b = userdata;
        Lookup l = { der, size };

        return esl_foreach_x509(b->data, b->size, same_certificate, &l) == 1 ? 0 : 1;
}

bool esl_x509_subset(const void *a, size_t a_size, const void *b, size_t b_size) {
        Superset sup = { b, b_size };

        fassert(a || a_size == 0);
        fassert(b || b_size == 0);

        return esl_foreach_x509(a, a_size, in_superset, &sup) == 0;
}
