/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What an entry may start: its pin, and a UKI for uki entries.
 */
#include "assert-fundamental.h"
#include "entry-image.h"
#include "pe-image.h"
#include "string-fundamental.h"

EntryImageVerdict entry_image_check(const BlsEntry *e, const void *data, size_t size,
                                    uint8_t digest[static SHA256_DIGEST_SIZE]) {
        char hex[2 * SHA256_DIGEST_SIZE + 1];
        PeHeaders h;
        const uint8_t *d;
        size_t n;

        fassert(e);
        fassert(data || size == 0);
        fassert(digest);

        sha256_digest(data, size, digest);
        if (e->pin) {
                /* the pin says everything: a pinned image is exactly the one meant, whatever its kind */
                sha256_to_hex(digest, hex);
                return fstreq(hex, e->pin) ? ENTRY_IMAGE_OK : ENTRY_IMAGE_PIN_MISMATCH;
        }
        if (pe_parse_headers(data, size, &h) < 0)
                return ENTRY_IMAGE_NOT_PE;
        if ((e->kind == BLS_KIND_UKI || e->kind == BLS_KIND_UKI_URL) &&
            pe_find_section(data, size, ".linux", false, &d, &n) < 0)
                return ENTRY_IMAGE_NOT_UKI;
        return ENTRY_IMAGE_OK;
}
