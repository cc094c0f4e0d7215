/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: OVMF variable stores as urlbootctl --vars-file= checks and writes them (security review
 * 2026-12-06, G6). Oracles: a file the check refuses is refused by the writer too, and left as it was;
 * in a file it accepts, a variable set reads back as the same bytes, set again reads back as the new
 * ones, removed is absent, BootOrder keeps its value throughout, a full store is left as it was, and no
 * write changes the firmware volume header (its fixed part and block map up to the map's end), the
 * variable store header, or anything after the store. Those places are found here from the input's
 * bytes, not by asking the code under test. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ovmf-vars.h"

#define FVH_BLOCK_MAP 56
#define STORE_HEADER_SIZE 28

static const uint8_t guid[16] = { 0x1e, 0x4d, 0x0a, 0x3c, 0x7f, 0x8b, 0x55, 0x4c,
                                  0x9a, 0x1e, 0x75, 0x72, 0x6c, 0x62, 0x6f, 0x6f };

static const uint8_t global[16] = { 0x61, 0xdf, 0xe4, 0x8b, 0xca, 0x93, 0xd2, 0x11,
                                    0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c };

static size_t le(const uint8_t *p, size_t n) {
        size_t v = 0;

        for (size_t i = n; i > 0; i--)
                v = v << 8 | p[i - 1];
        return v;
}

/* Where the headers end: past the block map's end marker, and past the store header at the header
 * length the volume claims, whichever is later. */
static size_t headers_end(const uint8_t *d, size_t size) {
        size_t off = FVH_BLOCK_MAP, store_header_end;

        while (off + 8 <= size && (le(d + off, 4) != 0 || le(d + off + 4, 4) != 0))
                off += 8;
        store_header_end = le(d + 48, 2) + STORE_HEADER_SIZE;
        off = off + 8 > store_header_end ? off + 8 : store_header_end;
        return off < size ? off : size;
}

/* Only records may change: the headers before them and all after the store stay. */
static void check_outside_records(const uint8_t *before, const uint8_t *after, size_t size) {
        size_t head = headers_end(before, size), hl = le(before + 48, 2), store_end = hl + le(before + hl + 16, 4);

        if (memcmp(before, after, head) != 0)
                abort();
        if (store_end < size && memcmp(before + store_end, after + store_end, size - store_end) != 0)
                abort();
}

static void expect_value(const uint8_t *store, size_t size, const void *value, size_t n) {
        const uint8_t *v;
        size_t k;

        if (ovmf_vars_get(store, size, "UrlbootFuzz", guid, &v, &k) < 0 || k != n || memcmp(v, value, n) != 0)
                abort();
}

/* Another variable keeps its value through our writes. */
static void expect_other_kept(const uint8_t *before, const uint8_t *after, size_t size) {
        const uint8_t *v, *w;
        size_t n, k;

        if (ovmf_vars_get(before, size, "BootOrder", global, &v, &n) < 0)
                return;
        if (ovmf_vars_get(after, size, "BootOrder", global, &w, &k) < 0 || k != n || memcmp(v, w, n) != 0)
                abort();
}

static void check_refused(const uint8_t *data, size_t size, uint8_t *store) {
        if (ovmf_vars_set(store, size, "UrlbootFuzz", guid, 7, "x", 1) != -EBADMSG || memcmp(store, data, size) != 0)
                abort();
}

static void check_writes(const uint8_t *data, size_t size, uint8_t *store) {
        /* The value: some of the input's own bytes, of a length its last byte picks. */
        size_t n = 1 + data[size - 1] % 96, k;
        const uint8_t *v;
        int r;

        r = ovmf_vars_set(store, size, "UrlbootFuzz", guid, 7, data, n);
        if (r == -ENOSPC) {
                if (memcmp(store, data, size) != 0)
                        abort();
                return;
        }
        if (r < 0)
                abort();
        expect_value(store, size, data, n);
        expect_other_kept(data, store, size);
        check_outside_records(data, store, size);
        if (ovmf_vars_check(store, size, NULL, 0) < 0)
                abort();

        if (ovmf_vars_set(store, size, "UrlbootFuzz", guid, 7, "again", 5) >= 0)
                expect_value(store, size, "again", 5);
        if (ovmf_vars_set(store, size, "UrlbootFuzz", guid, 7, NULL, 0) < 0)
                abort();
        if (ovmf_vars_get(store, size, "UrlbootFuzz", guid, &v, &k) != -ENOENT)
                abort();
        expect_other_kept(data, store, size);
        check_outside_records(data, store, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint8_t *store;

        if (size == 0 || size > 1024 * 1024)
                return 0;
        store = malloc(size);
        if (!store)
                return 0;
        memcpy(store, data, size);
        if (ovmf_vars_check(data, size, NULL, 0) < 0)
                check_refused(data, size, store);
        else
                check_writes(data, size, store);
        free(store);
        return 0;
}
