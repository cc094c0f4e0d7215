/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urlbootctl's certificates (certificates.c: what enroll-mok, tls-ca and --ca= read and write) against
 * the openssl command, and its PCR arithmetic (pcr-state.c) against known values. */
#include <stdlib.h>
#include <unistd.h>

#include "certificates.h"
#include "fileio.h"
#include "pcr-state.h"
#include "signature-list.h"
#include "tests.h"

/* Two self-signed certificates made by the openssl command: a.pem, b.pem, a.der, both.pem. */
static const char *make_certs(void) {
        const char *d = test_tmpdir();
        char cmd[2048];

        snprintf(cmd, sizeof cmd,
                 "cd '%s' && for n in a b; do openssl req -x509 -newkey rsa:2048 -nodes -keyout $n.key -out $n.pem "
                 "-days 2 -subj /CN=test-$n >/dev/null 2>&1 || exit 1; done && "
                 "openssl x509 -in a.pem -outform DER -out a.der && cat a.pem b.pem > both.pem && "
                 "openssl x509 -in a.pem -noout -fingerprint -sha256 | sed 's/.*=//; s/://g' | tr A-F a-f > a.fp",
                 d);
        if (system(cmd) != 0)
                test_fail(__FILE__, __LINE__, "openssl could not make the test certificates");
        return d;
}

static void path(char *buf, size_t size, const char *dir, const char *name) {
        snprintf(buf, size, "%s/%s", dir, name);
}

TEST(pem_der_and_garbage) {
        const char *d = make_certs();
        CertList l = {};
        char p[512], fp[65], *want = NULL;

        path(p, sizeof p, d, "both.pem");
        ASSERT_OK(cert_list_add_file(&l, p));
        ASSERT_EQ(l.n, 2);
        path(p, sizeof p, d, "a.der");
        ASSERT_OK(cert_list_add_file(&l, p));
        ASSERT_EQ(l.n, 3);
        /* the DER file is the first certificate of the PEM bundle, byte for byte */
        ASSERT_EQ(l.size[2], l.size[0]);
        ASSERT_TRUE(memcmp(l.der[2], l.der[0], l.size[0]) == 0);
        /* a key is not a certificate */
        path(p, sizeof p, d, "a.key");
        ASSERT_EQ(cert_list_add_file(&l, p), -EBADMSG);
        ASSERT_EQ(l.n, 3);

        path(p, sizeof p, d, "a.fp");
        ASSERT_OK(read_full_file(p, 4096, &want, NULL));
        want[strcspn(want, "\n")] = 0;
        cert_fingerprint(&l, 0, fp);
        ASSERT_STREQ(fp, want);
        free(want);
        cert_list_done(&l);
}

static uint32_t le32(const uint8_t *p) {
        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

TEST(signature_list_layout) {
        /* EFI_CERT_X509_GUID a5c059a1-94e4-4aa7-87b5-ab155c2bf072, as stored */
        static const uint8_t x509_guid[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
                                               0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
        static const uint8_t owner[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
        const char *d = make_certs();
        CertList l = {};
        uint8_t *esl;
        size_t size, off = 0;
        char p[512];

        path(p, sizeof p, d, "both.pem");
        ASSERT_OK(cert_list_add_file(&l, p));
        ASSERT_OK(cert_list_to_esl(&l, owner, &esl, &size));
        /* one EFI_SIGNATURE_LIST per certificate: type, ListSize, HeaderSize 0, SignatureSize, owner, DER */
        for (size_t i = 0; i < l.n; i++) {
                ASSERT_TRUE(off + 28 + 16 + l.size[i] <= size);
                ASSERT_TRUE(memcmp(esl + off, x509_guid, 16) == 0);
                ASSERT_EQ(le32(esl + off + 16), 28 + 16 + l.size[i]);
                ASSERT_EQ(le32(esl + off + 20), 0);
                ASSERT_EQ(le32(esl + off + 24), 16 + l.size[i]);
                ASSERT_TRUE(memcmp(esl + off + 28, owner, 16) == 0);
                ASSERT_TRUE(memcmp(esl + off + 44, l.der[i], l.size[i]) == 0);
                off += 28 + 16 + l.size[i];
        }
        ASSERT_EQ(off, size);
        free(esl);
        cert_list_done(&l);
}

/* The signature lists of one file's certificates. */
static void esl_of(const char *dir, const char *name, uint8_t **ret, size_t *ret_size) {
        static const uint8_t owner[16] = { 1 };
        CertList l = {};
        char p[512];

        path(p, sizeof p, dir, name);
        ASSERT_OK(cert_list_add_file(&l, p));
        ASSERT_OK(cert_list_to_esl(&l, owner, ret, ret_size));
        cert_list_done(&l);
}

/* Whether the firmware's list trusts nothing beyond the pinned one (the boot manager's tls_pin_exclusive()). */
TEST(signature_list_subset) {
        const char *d = make_certs();
        uint8_t *a, *b, *both;
        size_t an, bn, bothn;

        esl_of(d, "a.pem", &a, &an);
        esl_of(d, "b.pem", &b, &bn);
        esl_of(d, "both.pem", &both, &bothn);
        ASSERT_TRUE(esl_x509_subset(a, an, a, an));
        ASSERT_TRUE(esl_x509_subset(a, an, both, bothn));
        ASSERT_FALSE(esl_x509_subset(both, bothn, a, an));     /* the owner trusts b too */
        ASSERT_FALSE(esl_x509_subset(b, bn, a, an));
        ASSERT_TRUE(esl_x509_subset(NULL, 0, a, an));            /* no list: nothing beyond ours */
        ASSERT_FALSE(esl_x509_subset(a, an - 1, both, bothn));   /* unreadable: no subset */
        free(a);
        free(b);
        free(both);
}

TEST(pcr_extend_known_values) {
        /* PCR 11 (sha256) from zero, extended with SHA-256("abc"):
         * SHA-256(32 zero bytes || ba7816bf...15ad), computed with python3's hashlib */
        static const uint8_t abc[32] = { 0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                         0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                         0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad };
        static PcrSet s;
        char hex[65];

        ASSERT_OK(pcr_extend_digest(&s, 11, PCR_BANK_SHA256, abc));
        ASSERT_TRUE(s.touched[11] && !s.touched[12]);
        for (size_t i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", s.value[11][PCR_BANK_SHA256][i]);
        ASSERT_STREQ(hex, "589f9ffed4c477966bfb8d41f37895b08c69047df8f911d6f3b57fbe08faee8d");
        ASSERT_EQ(pcr_extend_digest(&s, PCR_COUNT, PCR_BANK_SHA256, abc), -ERANGE);
        ASSERT_EQ(pcr_bank_from_name("sha256"), PCR_BANK_SHA256);
        ASSERT_EQ(pcr_bank_digest_size(PCR_BANK_SHA384), 48);
        ASSERT_TRUE(pcr_bank_from_name("md5") < 0);
}
