/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The Authenticode hash of a PE32+ file and the digest its signature signs.
 */
#include "assert-fundamental.h"
#include "der.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "pe-authenticode.h"
#include "pe-image.h"
#include "string-fundamental.h"

#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002
#define WIN_CERT_HEADER_SIZE 8

/* 1.2.840.113549.1.7.2 signedData, 1.3.6.1.4.1.311.2.1.4 SPC_INDIRECT_DATA, 2.16.840.1.101.3.4.2.1 sha256 */
static const uint8_t oid_signed_data[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02 };
static const uint8_t oid_spc_indirect_data[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x04 };
static const uint8_t oid_sha256[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

/* Where the certificate table is (a file offset and size; 0 and 0 when there is none). */
static int certificate_table(const uint8_t *p, size_t size, const PeHeaders *h, uint32_t *ret_offset,
                             uint32_t *ret_size) {
        uint32_t dir = h->optional_header_offset + PE_OPT_DATA_DIRECTORY + 8 * PE_DATA_DIRECTORY_SECURITY;

        if (!h->pe32plus || h->size_of_optional_header < PE_OPT_DATA_DIRECTORY + 8 * (PE_DATA_DIRECTORY_SECURITY + 1) ||
            pe_le32(p + h->optional_header_offset + PE_OPT_NUMBER_OF_RVA_AND_SIZES) <= PE_DATA_DIRECTORY_SECURITY)
                return -EBADMSG;
        *ret_offset = pe_le32(p + dir);
        *ret_size = pe_le32(p + dir + 4);
        if (*ret_size > 0 && ((uint64_t) *ret_offset + *ret_size > size || *ret_offset < h->size_of_headers))
                return -EBADMSG;
        return 0;
}

/* The section table's entries in the order of their data in the file (insertion sort: a handful). */
static int sections_in_file_order(const uint8_t *p, size_t size, const PeHeaders *h, PeSection *s) {
        for (size_t i = 0; i < h->n_sections; i++) {
                PeSection t;
                size_t k = i;
                int r = pe_get_section(p, size, h, i, &t);

                if (r < 0)
                        return r;
                for (; k > 0 && s[k - 1].raw_offset > t.raw_offset; k--)
                        s[k] = s[k - 1];
                s[k] = t;
        }
        return 0;
}

int pe_authenticode_sha256(const void *image, size_t size, uint8_t ret[static SHA256_DIGEST_SIZE]) {
        const uint8_t *p = image;
        uint32_t checksum, dir, cert_offset, cert_size;
        _cleanup_ffree_ PeSection *s = NULL;
        uint64_t hashed, end;
        PeHeaders h;
        Sha256 c;
        int r;

        fassert(image || size == 0);
        fassert(ret);

        r = pe_parse_headers(image, size, &h);
        if (r < 0)
                return r;
        r = certificate_table(p, size, &h, &cert_offset, &cert_size);
        if (r < 0)
                return r;
        checksum = h.optional_header_offset + PE_OPT_CHECKSUM;
        dir = h.optional_header_offset + PE_OPT_DATA_DIRECTORY + 8 * PE_DATA_DIRECTORY_SECURITY;
        if (h.size_of_headers > size || h.size_of_headers < dir + 8)
                return -EBADMSG;
        s = fmalloc((h.n_sections ?: 1) * sizeof *s);
        if (!s)
                return -ENOMEM;
        r = sections_in_file_order(p, size, &h, s);
        if (r < 0)
                return r;

        sha256_init(&c);
        sha256_update(&c, p, checksum);
        sha256_update(&c, p + checksum + 4, dir - checksum - 4);
        sha256_update(&c, p + dir + 8, h.size_of_headers - dir - 8);
        hashed = end = h.size_of_headers;
        for (size_t i = 0; i < h.n_sections; i++) {
                if (s[i].raw_size == 0)
                        continue;
                /* data inside the headers or another section would be hashed twice, the CheckSum with it */
                if ((uint64_t) s[i].raw_offset + s[i].raw_size > size || s[i].raw_offset < end)
                        return -EBADMSG;
                end = (uint64_t) s[i].raw_offset + s[i].raw_size;
                sha256_update(&c, p + s[i].raw_offset, s[i].raw_size);
                hashed += s[i].raw_size;
        }
        /* what follows the sections, up to the certificates (which sit at the end) */
        if (cert_size > 0 ? hashed < cert_offset : hashed < size)
                sha256_update(&c, p + hashed, (cert_size > 0 ? cert_offset : size) - hashed);
        sha256_finish(&c, ret);
        return 0;
}

/* ContentInfo(signedData) -> SignedData -> contentInfo(SPC_INDIRECT_DATA) -> [0] -> messageDigest. */
static int spc_digest(const uint8_t *der, size_t n, uint8_t ret[static SHA256_DIGEST_SIZE]) {
        DerElement info, e, signed_data, content, indirect, digest_info, algorithm, digest;

        if (der_read(der, n, &info) < 0 || info.tag != DER_SEQUENCE || der_child(&info, 0, &e) < 0 ||
            !der_is(&e, DER_OID, oid_signed_data, sizeof oid_signed_data) || der_child(&info, 1, &e) < 0 ||
            e.tag != DER_CONTEXT_0 || der_child(&e, 0, &signed_data) < 0 || signed_data.tag != DER_SEQUENCE ||
            der_child(&signed_data, 2, &content) < 0 || content.tag != DER_SEQUENCE || der_child(&content, 0, &e) < 0 ||
            !der_is(&e, DER_OID, oid_spc_indirect_data, sizeof oid_spc_indirect_data) ||
            der_child(&content, 1, &e) < 0 || e.tag != DER_CONTEXT_0 || der_child(&e, 0, &indirect) < 0 ||
            indirect.tag != DER_SEQUENCE || der_child(&indirect, 1, &digest_info) < 0 ||
            digest_info.tag != DER_SEQUENCE || der_child(&digest_info, 0, &algorithm) < 0 ||
            algorithm.tag != DER_SEQUENCE || der_child(&algorithm, 0, &e) < 0 || e.tag != DER_OID ||
            der_child(&digest_info, 1, &digest) < 0 || digest.tag != DER_OCTET_STRING)
                return -EBADMSG;
        if (!der_is(&e, DER_OID, oid_sha256, sizeof oid_sha256) || digest.length != SHA256_DIGEST_SIZE)
                return -EOPNOTSUPP;
        fmemcpy(ret, digest.content, SHA256_DIGEST_SIZE);
        return 0;
}

int pe_signature_sha256(const void *image, size_t size, uint8_t ret[static SHA256_DIGEST_SIZE]) {
        const uint8_t *p = image;
        uint32_t cert_offset, cert_size, length;
        PeHeaders h;
        int r;

        fassert(image || size == 0);
        fassert(ret);

        r = pe_parse_headers(image, size, &h);
        if (r < 0)
                return r;
        r = certificate_table(p, size, &h, &cert_offset, &cert_size);
        if (r < 0)
                return r;
        if (cert_size < WIN_CERT_HEADER_SIZE)
                return -ENOENT;
        /* the first WIN_CERTIFICATE: the one firmware and shim check first */
        length = pe_le32(p + cert_offset);
        if (length < WIN_CERT_HEADER_SIZE || length > cert_size)
                return -EBADMSG;
        if (pe_le16(p + cert_offset + 6) != WIN_CERT_TYPE_PKCS_SIGNED_DATA)
                return -EOPNOTSUPP;
        return spc_digest(p + cert_offset + WIN_CERT_HEADER_SIZE, length - WIN_CERT_HEADER_SIZE, ret);
}

PeSignatureVerdict pe_signature_verdict(const void *image, size_t size) {
        uint8_t signed_digest[SHA256_DIGEST_SIZE], digest[SHA256_DIGEST_SIZE];
        int r;

        fassert(image || size == 0);

        r = pe_signature_sha256(image, size, signed_digest);
        if (r == -ENOENT)
                return PE_UNSIGNED;
        if (r < 0 || pe_authenticode_sha256(image, size, digest) < 0)
                return PE_UNKNOWN;
        return fmemcmp(digest, signed_digest, SHA256_DIGEST_SIZE) == 0 ? PE_INTACT : PE_CHANGED;
}
