/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Authenticode, as far as telling why Secure Boot refused an image: the SHA-256 Authenticode hash of a PE32+
 * file (the headers without CheckSum and the certificate table's directory entry, the sections in file
 * order, whatever follows them but the certificates) and the digest its signature signs (the
 * SpcIndirectDataContent of the first PKCS#7 certificate). Equal: the image is as signed, so the signer is
 * not trusted here; different: it was changed after it was signed. Nothing here decides trust: the firmware
 * and shim do.
 */
#pragma once

#include "macro-fundamental.h"
#include "sha256.h"

/** @ret 0, -EBADMSG (not a PE32+ image, or its sections or certificates lie outside it), -ENOMEM */
int pe_authenticode_sha256(const void *image, size_t size, uint8_t ret[static SHA256_DIGEST_SIZE]);

/**
 * The SHA-256 the image's signature signs.
 * @ret 0, -ENOENT (no signature), -EOPNOTSUPP (a signature over another digest), -EBADMSG
 */
int pe_signature_sha256(const void *image, size_t size, uint8_t ret[static SHA256_DIGEST_SIZE]);

typedef enum PeSignatureVerdict {
        PE_UNSIGNED,            /* no signature at all */
        PE_CHANGED,             /* signed, but its bytes are no longer the ones signed */
        PE_INTACT,              /* as signed: whoever signed it is not trusted here */
        PE_UNKNOWN,             /* cannot tell (not PE32+, another digest, malformed) */
} PeSignatureVerdict;

/** Why Secure Boot may have refused the image (see above). */
PeSignatureVerdict pe_signature_verdict(const void *image, size_t size);
