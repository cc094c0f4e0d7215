/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The pinned CA, for the firmware's TLS and for the OS to see.
 */
#include <efi.h>
#include <efilib.h>

#include "efi-tls.h"
#include "efi-variables.h"
#include "memory-fundamental.h"
#include "sha256.h"
#include "signature-list.h"
#include "string-fundamental.h"

/* EFI_TLS_CA_CERTIFICATE_GUID, the vendor of TlsCaCertificate */
static EFI_GUID tls_ca_guid = { 0xfd2340d0, 0x3dab, 0x4349, { 0xa6, 0xc7, 0x3b, 0x4f, 0x12, 0xb4, 0x8e, 0xae } };

EFI_STATUS tls_pin_ca(const void *esl, size_t size) {
        /* One set with other attributes (an NV copy from the setup screen) would make ours fail: it goes first. */
        (void) RT->SetVariable(L"TlsCaCertificate", &tls_ca_guid, 0, 0, NULL);
        return RT->SetVariable(L"TlsCaCertificate", &tls_ca_guid, EFI_VARIABLE_BOOTSERVICE_ACCESS, size, (void *) esl);
}

typedef struct Hex {
        char text[4 * (2 * SHA256_DIGEST_SIZE + 1) + 1];        /* room for four fingerprints */
        size_t len;
} Hex;

static int add_fingerprint(const uint8_t *der, size_t size, void *userdata) {
        static const char digits[] = "0123456789abcdef";
        uint8_t d[SHA256_DIGEST_SIZE];
        Hex *h = userdata;

        if (h->len + 2 * SHA256_DIGEST_SIZE + 2 > sizeof h->text)
                return 1;
        sha256_digest(der, size, d);
        if (h->len > 0)
                h->text[h->len++] = ' ';
        for (size_t i = 0; i < sizeof d; i++) {
                h->text[h->len++] = digits[d[i] >> 4];
                h->text[h->len++] = digits[d[i] & 15];
        }
        h->text[h->len] = 0;
        return 0;
}

void tls_export_fingerprints(const void *esl, size_t size) {
        Hex h = {};

        (void) esl_foreach_x509(esl, size, add_fingerprint, &h);
        if (h.len > 0)
                (void) RT->SetVariable(L"" URLBOOT_VAR_TLS_CA, &urlboot_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                                       h.len, h.text);
}
