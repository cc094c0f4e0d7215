/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Event log records of TPM measurements.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "measure-event.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "utf16.h"

#define TCG2_EVENT_HEADER_VERSION 1
#define TAGGED_EVENT_PREFIX_SIZE 8      /* TCG_PCClientTaggedEvent: id, size */

static void put_le32(uint8_t *p, uint32_t v) {
        for (size_t i = 0; i < 4; i++)
                p[i] = (uint8_t) (v >> (8 * i));
}

static void put_le16(uint8_t *p, uint16_t v) {
        p[0] = (uint8_t) v;
        p[1] = (uint8_t) (v >> 8);
}

/* The description as UTF-16LE with its NUL: a copy of the UTF-16 one, or the UTF-8 one converted. */
static int description_utf16(const MeasureEvent *e, void **ret, size_t *ret_size) {
        void *d;

        if (e->description)
                return utf8_to_utf16le(e->description, fstrlen(e->description), ret, ret_size);
        d = fmalloc(e->description_utf16_size);
        if (!d)
                return -ENOMEM;
        fmemcpy(d, e->description_utf16, e->description_utf16_size);
        *ret = d;
        *ret_size = e->description_utf16_size;
        return 0;
}

int measure_event_log_data(const MeasureEvent *e, void **ret, size_t *ret_size) {
        _cleanup_ffree_ void *desc = NULL;
        size_t desc_size;
        uint8_t *p;
        int r;

        fassert(e);
        fassert(ret);
        fassert(ret_size);

        r = description_utf16(e, &desc, &desc_size);
        if (r < 0)
                return r;
        if (e->type != TCG_EV_EVENT_TAG) {
                *ret = TAKE_PTR(desc);
                *ret_size = desc_size;
                return 0;
        }
        p = fmalloc(TAGGED_EVENT_PREFIX_SIZE + desc_size);
        if (!p)
                return -ENOMEM;
        put_le32(p, e->tag);
        put_le32(p + 4, (uint32_t) desc_size);
        fmemcpy(p + TAGGED_EVENT_PREFIX_SIZE, desc, desc_size);
        *ret = p;
        *ret_size = TAGGED_EVENT_PREFIX_SIZE + desc_size;
        return 0;
}

int measure_event_tcg2(const MeasureEvent *e, void **ret, size_t *ret_size) {
        _cleanup_ffree_ void *data = NULL;
        size_t data_size, total;
        uint8_t *p;
        int r;

        fassert(e);
        fassert(ret);
        fassert(ret_size);

        r = measure_event_log_data(e, &data, &data_size);
        if (r < 0)
                return r;
        if (data_size > UINT32_MAX - TCG2_EVENT_PREFIX_SIZE)
                return -E2BIG;
        total = TCG2_EVENT_PREFIX_SIZE + data_size;
        p = fmalloc(total);
        if (!p)
                return -ENOMEM;
        put_le32(p, (uint32_t) total);
        put_le32(p + 4, TCG2_EVENT_HEADER_SIZE);
        put_le16(p + 8, TCG2_EVENT_HEADER_VERSION);
        put_le32(p + 10, e->pcr);
        put_le32(p + 14, e->type);
        fmemcpy(p + TCG2_EVENT_PREFIX_SIZE, data, data_size);
        *ret = p;
        *ret_size = total;
        return 0;
}
