/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * DER, one element at a time.
 */
#include "assert-fundamental.h"
#include "der.h"
#include "errno-fundamental.h"
#include "string-fundamental.h"

int der_read(const uint8_t *data, size_t size, DerElement *ret) {
        size_t header = 2, length;

        fassert(data || size == 0);
        fassert(ret);

        if (size < 2 || (data[0] & 0x1f) == 0x1f)
                return -EBADMSG;        /* too short, or a tag of several bytes (none in what we read) */
        if (data[1] < 0x80)
                length = data[1];
        else {
                size_t n = data[1] & 0x7f;

                /* 0x80 is BER's indefinite length; more than 4 length octets is more than any signature */
                if (n == 0 || n > 4 || size < 2 + n)
                        return -EBADMSG;
                length = 0;
                for (size_t i = 0; i < n; i++)
                        length = length << 8 | data[2 + i];
                header += n;
        }
        if (length > size - header)
                return -EBADMSG;
        *ret = (DerElement) { .tag = data[0], .content = data + header, .length = length, .total = header + length };
        return 0;
}

int der_child(const DerElement *parent, size_t index, DerElement *ret) {
        size_t off = 0;
        int r;

        fassert(parent);
        fassert(ret);

        if (!(parent->tag & 0x20))
                return -EBADMSG;        /* primitive: no children */
        for (size_t i = 0;; i++) {
                if (off >= parent->length)
                        return -ENOENT;
                r = der_read(parent->content + off, parent->length - off, ret);
                if (r < 0)
                        return r;
                if (i == index)
                        return 0;
                off += ret->total;
        }
}

bool der_is(const DerElement *e, uint8_t tag, const uint8_t *content, size_t length) {
        fassert(e);

        return e->tag == tag && e->length == length && fmemcmp(e->content, content, length) == 0;
}
