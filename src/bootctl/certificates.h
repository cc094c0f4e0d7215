/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * X.509 certificates from PEM or DER files (OpenSSL), as the firmware and shim take them: EFI signature
 * lists (TlsCaCertificate, QEMU's etc/edk2/https/cacerts, MokList) and PEM text (for the initrd's tools).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct CertList {
        uint8_t **der;
        size_t *size;
        size_t n;
} CertList;

void cert_list_done(CertList *l);

/**
 * Add every certificate of a file: PEM (one or several) or DER (one).
 * @ret 0, -EBADMSG when the file holds no certificate, another negative errno (not logged)
 */
int cert_list_add_file(CertList *l, const char *path);

/** The certificates as EFI signature lists, one per certificate, with owner (16 bytes). */
int cert_list_to_esl(const CertList *l, const uint8_t owner[16], uint8_t **ret, size_t *ret_size);

/** The certificates as PEM text. */
int cert_list_to_pem(const CertList *l, char **ret, size_t *ret_size);

/** The SHA-256 of certificate i (its DER), as 64 lowercase hex digits. */
void cert_fingerprint(const CertList *l, size_t i, char ret[65]);
