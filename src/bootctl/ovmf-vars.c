/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing variables into an OVMF variable store file.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "ovmf-vars.h"
#include "pe-image.h"
#include "utf16.h"

#define FVH_SIGNATURE_OFFSET 40
#define FVH_HEADER_LENGTH_OFFSET 48
#define STORE_HEADER_SIZE 28
#define RECORD_HEADER_SIZE 60
#define VAR_START_ID 0x55aa
#define VAR_ADDED 0x3f
#define VAR_DELETED 0xfd        /* ANDed into the state */

typedef struct Store {
        size_t start, end;      /* records area */
} Store;

static int find_store(const uint8_t *buf, size_t size, Store *ret) {
        size_t hl, store_size;

        if (size < 64 || memcmp(buf + FVH_SIGNATURE_OFFSET, "_FVH", 4) != 0)
                return -EBADMSG;
        hl = pe_le16(buf + FVH_HEADER_LENGTH_OFFSET);
        if (hl + STORE_HEADER_SIZE > size)
                return -EBADMSG;
        store_size = pe_le32(buf + hl + 16);
        if (store_size < STORE_HEADER_SIZE || hl + store_size > size)
                return -EBADMSG;
        ret->start = hl + STORE_HEADER_SIZE;
        ret->end = hl + store_size;
        return 0;
}

/* The record after the one at off, or 0 when there is none (end of records, or damage). */
static size_t next_record(const uint8_t *buf, const Store *s, size_t off) {
        size_t ns, ds, next;

        if (off + RECORD_HEADER_SIZE > s->end || pe_le16(buf + off) != VAR_START_ID)
                return 0;
        ns = pe_le32(buf + off + 36);
        ds = pe_le32(buf + off + 40);
        next = ALIGN_TO(off + RECORD_HEADER_SIZE + ns + ds, (size_t) 4);
        return next > s->end || next <= off ? 0 : next;
}

/* Walks the records; returns the offset after the last one. */
static size_t records_end(const uint8_t *buf, const Store *s) {
        size_t off = s->start, next;

        while ((next = next_record(buf, s, off)) > 0)
                off = next;
        return off;
}

static bool record_matches(const uint8_t *buf, size_t off, const void *name16, size_t name16_size,
                           const uint8_t guid[16]) {
        return buf[off + 2] == VAR_ADDED && pe_le32(buf + off + 36) == name16_size &&
               memcmp(buf + off + 44, guid, 16) == 0 && memcmp(buf + off + RECORD_HEADER_SIZE, name16, name16_size) == 0;
}

/* The store in buf, the name as stored (UTF-16LE with NUL), and where the records end. */
static int prepare(const uint8_t *buf, size_t size, const char *name, Store *ret_store, void **ret_name16,
                   size_t *ret_name16_size, size_t *ret_end) {
        int r = find_store(buf, size, ret_store);

        if (r < 0)
                return r;
        r = utf8_to_utf16le(name, strlen(name), ret_name16, ret_name16_size);
        if (r < 0)
                return r;
        *ret_end = records_end(buf, ret_store);
        return 0;
}

int ovmf_vars_get(const uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], const uint8_t **ret,
                  size_t *ret_size) {
        _cleanup_free_ void *name16 = NULL;
        size_t name16_size, off, end;
        Store s;
        int r;

        assert(buf || size == 0);
        assert(name);
        assert(guid);
        assert(ret);
        assert(ret_size);

        r = prepare(buf, size, name, &s, &name16, &name16_size, &end);
        if (r < 0)
                return r;
        for (off = s.start; off && off < end; off = next_record(buf, &s, off))
                if (record_matches(buf, off, name16, name16_size, guid)) {
                        *ret = buf + off + RECORD_HEADER_SIZE + pe_le32(buf + off + 36);
                        *ret_size = pe_le32(buf + off + 40);
                        return 0;
                }
        return -ENOENT;
}

int ovmf_vars_set(uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], uint32_t attributes,
                  const void *data, size_t data_size) {
        _cleanup_free_ void *name16 = NULL;
        size_t name16_size, off, end, need;
        Store s;
        uint8_t *h;
        int r;

        assert(buf || size == 0);
        assert(name);
        assert(guid);
        assert(data || data_size == 0);

        r = prepare(buf, size, name, &s, &name16, &name16_size, &end);
        if (r < 0)
                return r;
        need = ALIGN_TO(RECORD_HEADER_SIZE + name16_size + data_size, (size_t) 4);
        if (data_size > 0 && end + need > s.end)
                return -ENOSPC;

        /* The old value stays in place, marked deleted. */
        for (off = s.start; off && off < end; off = next_record(buf, &s, off))
                if (record_matches(buf, off, name16, name16_size, guid))
                        buf[off + 2] &= VAR_DELETED;
        if (data_size == 0)
                return 0; /* removed */

        h = buf + end;
        memset(h, 0, need);
        h[0] = 0xaa;
        h[1] = 0x55;
        h[2] = VAR_ADDED;
        for (int i = 0; i < 4; i++)
                h[4 + i] = (uint8_t) (attributes >> (8 * i));
        /* monotonic count, time stamp and key index stay zero: not an authenticated write */
        for (int i = 0; i < 4; i++) {
                h[36 + i] = (uint8_t) (name16_size >> (8 * i));
                h[40 + i] = (uint8_t) (data_size >> (8 * i));
        }
        memcpy(h + 44, guid, 16);
        memcpy(h + RECORD_HEADER_SIZE, name16, name16_size);
        memcpy(h + RECORD_HEADER_SIZE + name16_size, data, data_size);
        return 0;
}
