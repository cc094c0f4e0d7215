/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading DER (ASN.1's distinguished encoding) one element at a time, bounds-checked: enough to walk a
 * PKCS#7 signature to the digest it signs. Definite lengths only (DER has no others), tags of one byte.
 */
#pragma once

#include "macro-fundamental.h"

#define DER_SEQUENCE 0x30
#define DER_SET 0x31
#define DER_INTEGER 0x02
#define DER_OCTET_STRING 0x04
#define DER_OID 0x06
#define DER_CONTEXT_0 0xa0      /* [0] EXPLICIT, constructed */

typedef struct DerElement {
        uint8_t tag;
        const uint8_t *content;
        size_t length;          /* of the content */
        size_t total;           /* tag, length octets and content */
} DerElement;

/** The element at data[0..size). @ret 0, -EBADMSG when it does not fit or is not DER */
int der_read(const uint8_t *data, size_t size, DerElement *ret);

/** The element inside a constructed one's content, child number index (0-based). @ret 0, -ENOENT, -EBADMSG */
int der_child(const DerElement *parent, size_t index, DerElement *ret);

/** Whether an element is this tag with exactly these content bytes (an OID, say). */
bool der_is(const DerElement *e, uint8_t tag, const uint8_t *content, size_t length);
