/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing variables into an OVMF variable store file.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "error-buf.h"
#include "macro.h"
#include "ovmf-vars.h"
#include "pe-image.h"
#include "utf16.h"

/* EFI_FIRMWARE_VOLUME_HEADER (PI 1.8, vol. 3, 3.2.1) */
#define FVH_LENGTH_OFFSET 32
#define FVH_SIGNATURE_OFFSET 40
#define FVH_HEADER_LENGTH_OFFSET 48
#define FVH_BLOCK_MAP_OFFSET 56 /* the fixed part ends here */
#define FVH_BLOCK_ENTRY_SIZE 8  /* NumBlocks, Length; { 0, 0 } ends the map */
#define FVH_HEADER_MIN (FVH_BLOCK_MAP_OFFSET + 2 * FVH_BLOCK_ENTRY_SIZE)

/* VARIABLE_STORE_HEADER: signature GUID, Size, Format, State, reserved */
#define STORE_HEADER_SIZE 28
#define STORE_SIZE_OFFSET 16
#define STORE_FORMAT_OFFSET 20
#define STORE_STATE_OFFSET 21
#define STORE_FORMATTED 0x5a
#define STORE_HEALTHY 0xfe

#define VAR_START_ID 0x55aa
#define VAR_ADDED 0x3f
#define VAR_DELETED 0xfd        /* ANDed into the state */

/* gEfiAuthenticatedVariableGuid aaf32c78-947b-439a-a180-2e144ec37792 and gEfiVariableGuid
 * ddcf3616-3275-4164-98b6-fe85707ffe7d, as stored (little-endian fields). */
static const uint8_t store_guid_authenticated[16] = { 0x78, 0x2c, 0xf3, 0xaa, 0x7b, 0x94, 0x9a, 0x43,
                                                       0xa1, 0x80, 0x2e, 0x14, 0x4e, 0xc3, 0x77, 0x92 };
static const uint8_t store_guid_plain[16] = { 0x16, 0x36, 0xcf, 0xdd, 0x75, 0x32, 0x64, 0x41,
                                               0x98, 0xb6, 0xfe, 0x85, 0x70, 0x7f, 0xfe, 0x7d };

/* Where a record header keeps what we read and write: the two layouts differ after the attributes. */
typedef struct RecordLayout {
        size_t header_size, name_size_offset, data_size_offset, guid_offset;
} RecordLayout;

static const RecordLayout layout_authenticated = { 60, 36, 40, 44 }; /* AUTHENTICATED_VARIABLE_HEADER */
static const RecordLayout layout_plain = { 32, 8, 12, 16 };          /* VARIABLE_HEADER */

typedef struct Store {
        size_t start, end;      /* records area */
        const RecordLayout *layout;
} Store;

static uint64_t le64(const uint8_t *p) {
        return pe_le32(p) | (uint64_t) pe_le32(p + 4) << 32;
}

/* The volume's length and its header's: the variable store header follows the volume header. */
static int check_volume(const uint8_t *buf, size_t size, size_t *ret_header, size_t *ret_length, char *error,
                        size_t error_size) {
        uint64_t length;
        size_t hl;

        if (size < FVH_BLOCK_MAP_OFFSET)
                return error_setf(error, error_size, -EBADMSG, "%zu bytes are too few for a firmware volume header",
                                  size);
        if (memcmp(buf + FVH_SIGNATURE_OFFSET, "_FVH", 4) != 0)
                return error_setf(error, error_size, -EBADMSG, "no firmware volume signature \"_FVH\" at offset %d",
                                  FVH_SIGNATURE_OFFSET);
        length = le64(buf + FVH_LENGTH_OFFSET);
        if (length > size)
                return error_setf(error, error_size, -EBADMSG,
                                  "the firmware volume claims %" PRIu64 " bytes, the file has %zu", length, size);
        hl = pe_le16(buf + FVH_HEADER_LENGTH_OFFSET);
        if (hl < FVH_HEADER_MIN)
                return error_setf(error, error_size, -EBADMSG,
                                  "the firmware volume header length %zu is below %d (the fixed header, one block map "
                                  "entry and the end of the map)", hl, FVH_HEADER_MIN);
        if (hl % 2 != 0)
                return error_setf(error, error_size, -EBADMSG, "the firmware volume header length %zu is odd", hl);
        if (hl + STORE_HEADER_SIZE > length)
                return error_setf(error, error_size, -EBADMSG,
                                  "the firmware volume header length %zu leaves no room for a variable store header in "
                                  "the volume's %" PRIu64 " bytes", hl, length);
        *ret_header = hl;
        *ret_length = (size_t) length;
        return 0;
}

/* The block map must have an entry and its end marker inside the header. */
static int check_block_map(const uint8_t *buf, size_t header, char *error, size_t error_size) {
        size_t off;

        for (off = FVH_BLOCK_MAP_OFFSET; off + FVH_BLOCK_ENTRY_SIZE <= header; off += FVH_BLOCK_ENTRY_SIZE)
                if (pe_le32(buf + off) == 0 && pe_le32(buf + off + 4) == 0)
                        break;
        if (off == FVH_BLOCK_MAP_OFFSET)
                return error_setf(error, error_size, -EBADMSG, "the firmware volume's block map is empty");
        if (off + FVH_BLOCK_ENTRY_SIZE > header)
                return error_setf(error, error_size, -EBADMSG,
                                  "the firmware volume's block map does not end within its %zu-byte header", header);
        return 0;
}

static const RecordLayout *store_layout(const uint8_t *guid) {
        if (memcmp(guid, store_guid_authenticated, 16) == 0)
                return &layout_authenticated;
        if (memcmp(guid, store_guid_plain, 16) == 0)
                return &layout_plain;
        return NULL;
}

/* The variable store header at off (inside a volume of length bytes). */
static int check_store_header(const uint8_t *buf, size_t off, size_t length, Store *ret, char *error,
                              size_t error_size) {
        const uint8_t *h = buf + off;
        const RecordLayout *layout = store_layout(h);
        size_t store_size;

        if (!layout)
                return error_setf(error, error_size, -EBADMSG,
                                  "no variable store GUID (authenticated or plain) after the volume header, at "
                                  "offset %zu", off);
        if (h[STORE_FORMAT_OFFSET] != STORE_FORMATTED)
                return error_setf(error, error_size, -EBADMSG,
                                  "the variable store is not formatted (0x%02x, not 0x%02x)", h[STORE_FORMAT_OFFSET],
                                  STORE_FORMATTED);
        if (h[STORE_STATE_OFFSET] != STORE_HEALTHY)
                return error_setf(error, error_size, -EBADMSG,
                                  "the variable store is not healthy (state 0x%02x, not 0x%02x)", h[STORE_STATE_OFFSET],
                                  STORE_HEALTHY);
        store_size = pe_le32(h + STORE_SIZE_OFFSET);
        if (store_size < STORE_HEADER_SIZE)
                return error_setf(error, error_size, -EBADMSG, "the variable store's size %zu is less than its header's",
                                  store_size);
        if (store_size > length - off)
                return error_setf(error, error_size, -EBADMSG,
                                  "the variable store's size %zu does not fit the %zu bytes after the volume header",
                                  store_size, length - off);
        ret->end = off + store_size;
        ret->start = MIN(ALIGN_TO(off + STORE_HEADER_SIZE, (size_t) 4), ret->end); /* records are 4-byte aligned */
        ret->layout = layout;
        return 0;
}

static int find_store(const uint8_t *buf, size_t size, Store *ret, char *error, size_t error_size) {
        size_t header = 0, length = 0;
        int r;

        r = check_volume(buf, size, &header, &length, error, error_size);
        if (r < 0)
                return r;
        r = check_block_map(buf, header, error, error_size);
        if (r < 0)
                return r;
        return check_store_header(buf, header, length, ret, error, error_size);
}

int ovmf_vars_check(const uint8_t *buf, size_t size, char *error, size_t error_size) {
        Store s;

        assert(buf || size == 0);

        return find_store(buf, size, &s, error, error_size);
}

/* The record after the one at off, or 0 when there is none (end of records, or damage). */
static size_t next_record(const uint8_t *buf, const Store *s, size_t off) {
        const RecordLayout *l = s->layout;
        size_t ns, ds, next;

        if (off + l->header_size > s->end || pe_le16(buf + off) != VAR_START_ID)
                return 0;
        ns = pe_le32(buf + off + l->name_size_offset);
        ds = pe_le32(buf + off + l->data_size_offset);
        next = ALIGN_TO(off + l->header_size + ns + ds, (size_t) 4);
        return next > s->end || next <= off ? 0 : next;
}

/* Walks the records; returns the offset after the last one. */
static size_t records_end(const uint8_t *buf, const Store *s) {
        size_t off = s->start, next;

        while ((next = next_record(buf, s, off)) > 0)
                off = next;
        return off;
}

static bool record_matches(const uint8_t *buf, const Store *s, size_t off, const void *name16, size_t name16_size,
                           const uint8_t guid[16]) {
        const RecordLayout *l = s->layout;

        return buf[off + 2] == VAR_ADDED && pe_le32(buf + off + l->name_size_offset) == name16_size &&
               memcmp(buf + off + l->guid_offset, guid, 16) == 0 &&
               memcmp(buf + off + l->header_size, name16, name16_size) == 0;
}

/* The store in buf, the name as stored (UTF-16LE with NUL), and where the records end. */
static int prepare(const uint8_t *buf, size_t size, const char *name, Store *ret_store, void **ret_name16,
                   size_t *ret_name16_size, size_t *ret_end) {
        int r = find_store(buf, size, ret_store, NULL, 0);

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
                if (record_matches(buf, &s, off, name16, name16_size, guid)) {
                        *ret = buf + off + s.layout->header_size + name16_size;
                        *ret_size = pe_le32(buf + off + s.layout->data_size_offset);
                        return 0;
                }
        return -ENOENT;
}

static void put_le32(uint8_t *p, uint32_t v) {
        for (int i = 0; i < 4; i++)
                p[i] = (uint8_t) (v >> (8 * i));
}

/* A new record at h (need bytes, zeroed first). Monotonic count, time stamp and key index of an
 * authenticated record stay zero: not an authenticated write. */
static void write_record(uint8_t *h, size_t need, const RecordLayout *l, const void *name16, size_t name16_size,
                         const uint8_t guid[16], uint32_t attributes, const void *data, size_t data_size) {
        memset(h, 0, need);
        h[0] = 0xaa;
        h[1] = 0x55;
        h[2] = VAR_ADDED;
        put_le32(h + 4, attributes);
        put_le32(h + l->name_size_offset, (uint32_t) name16_size);
        put_le32(h + l->data_size_offset, (uint32_t) data_size);
        memcpy(h + l->guid_offset, guid, 16);
        memcpy(h + l->header_size, name16, name16_size);
        memcpy(h + l->header_size + name16_size, data, data_size);
}

int ovmf_vars_set(uint8_t *buf, size_t size, const char *name, const uint8_t guid[16], uint32_t attributes,
                  const void *data, size_t data_size) {
        _cleanup_free_ void *name16 = NULL;
        size_t name16_size, off, end, need;
        Store s;
        int r;

        assert(buf || size == 0);
        assert(name);
        assert(guid);
        assert(data || data_size == 0);

        r = prepare(buf, size, name, &s, &name16, &name16_size, &end);
        if (r < 0)
                return r;
        need = ALIGN_TO(s.layout->header_size + name16_size + data_size, (size_t) 4);
        if (data_size > 0 && end + need > s.end)
                return -ENOSPC;

        /* The old value stays in place, marked deleted. */
        for (off = s.start; off && off < end; off = next_record(buf, &s, off))
                if (record_matches(buf, &s, off, name16, name16_size, guid))
                        buf[off + 2] &= VAR_DELETED;
        if (data_size > 0)
                write_record(buf + end, need, s.layout, name16, name16_size, guid, attributes, data, data_size);
        return 0;
}
