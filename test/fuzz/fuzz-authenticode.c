/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: Authenticode on untrusted images (the boot manager looks at bytes Secure Boot refused, to say
 * why). Oracle: what pe_signature_sha256() returns is 32 bytes that stand in the input after the headers (the
 * certificates are there); the hash does not depend on the CheckSum field (Authenticode leaves it out); the
 * verdict agrees with the two digests. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pe-authenticode.h"
#include "pe-image.h"

static bool in_input(const uint8_t *data, size_t size, const uint8_t *d) {
        for (size_t i = 0; i + SHA256_DIGEST_SIZE <= size; i++)
                if (memcmp(data + i, d, SHA256_DIGEST_SIZE) == 0)
                        return true;
        return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint8_t signed_digest[SHA256_DIGEST_SIZE], a[SHA256_DIGEST_SIZE], b[SHA256_DIGEST_SIZE];
        int rs, ra, rb;
        PeSignatureVerdict v;
        PeHeaders h;
        uint8_t *copy;

        rs = pe_signature_sha256(data, size, signed_digest);
        if (rs == 0 && !in_input(data, size, signed_digest))
                abort();
        ra = pe_authenticode_sha256(data, size, a);
        v = pe_signature_verdict(data, size);
        if ((rs == -ENOENT) != (v == PE_UNSIGNED))
                abort();
        if (rs == 0 && ra == 0 && (v == PE_INTACT) != (memcmp(a, signed_digest, sizeof a) == 0))
                abort();
        if (ra == 0 && pe_parse_headers(data, size, &h) == 0) {
                copy = malloc(size);
                if (!copy)
                        return 0;
                memcpy(copy, data, size);
                copy[h.optional_header_offset + PE_OPT_CHECKSUM] ^= 0xff;
                rb = pe_authenticode_sha256(copy, size, b);
                if (rb != 0 || memcmp(a, b, sizeof a) != 0)
                        abort();
                free(copy);
        }
        return 0;
}
