/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * EFI_SIGNATURE_LIST (UEFI 2.10, 32.4.1) holding X.509 certificates: what the firmware's TLS reads from
 * TlsCaCertificate (and QEMU passes as etc/edk2/https/cacerts), and what shim keeps in MokList. One list
 * per certificate, as mokutil and p11-kit write them.
 */
#pragma once

#include "macro-fundamental.h"

/* Hidden: reached PC-relative, without a GOT, which the UEFI programs have none of. */
#define _esl_hidden_ __attribute__((visibility("hidden")))

/* EFI_CERT_X509_GUID a5c059a1-94e4-4aa7-87b5-ab155c2bf072, in memory order */
extern const uint8_t esl_cert_x509_guid[16] _esl_hidden_;
/* SHIM_LOCK_GUID 605dab50-e046-4300-abb6-3dd810dd8b23: the owner shim and mokutil put on MOKs */
extern const uint8_t esl_owner_shim[16] _esl_hidden_;
/* urlboot's own vendor GUID, as owner of the CAs it pins */
extern const uint8_t esl_owner_urlboot[16] _esl_hidden_;

#define ESL_HEADER_SIZE 28U
#define ESL_OWNER_SIZE 16U

/** The size of one list holding one certificate of der_size bytes. */
size_t esl_x509_size(size_t der_size);

/**
 * Write one list with one certificate at out (esl_x509_size() bytes).
 * @ret 0, -E2BIG when the certificate does not fit the list's 32-bit sizes
 */
int esl_x509_write(void *out, const void *der, size_t der_size, const uint8_t owner[16]);

typedef int (*esl_x509_cb)(const uint8_t *der, size_t size, void *userdata);

/**
 * Call cb for every X.509 certificate in a sequence of lists; lists of other types are skipped.
 * @ret 0, what cb returned when not 0, -EBADMSG when a list's sizes do not fit the data
 */
int esl_foreach_x509(const void *data, size_t size, esl_x509_cb cb, void *userdata);

/**
 * Whether every X.509 certificate of the lists in a is also in the lists of b (byte for byte): a TLS
 * client that trusts a trusts nothing b does not. Lists that cannot be read are no subset.
 */
bool esl_x509_subset(const void *a, size_t a_size, const void *b, size_t b_size);
