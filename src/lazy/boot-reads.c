/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "boot-reads.h"
#include "error-buf.h"

/* Where offset is or would go in r->sorted. */
static size_t sorted_place(const BootReads *r, uint64_t offset) {
        size_t lo = 0, hi = r->n;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;

                if (r->sorted[mid] < offset)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return lo;
}

int boot_reads_add(BootReads *r, uint64_t offset) {
        size_t at = sorted_place(r, offset);

        if (at < r->n && r->sorted[at] == offset)
                return 0;
        if (r->n == BOOT_READS_MAX)
                return -E2BIG;
        if (r->n == r->allocated) {
                size_t m = r->allocated ? r->allocated * 2 : 256;
                uint64_t *o = realloc(r->offset, m * sizeof *o), *s;

                if (!o)
                        return -ENOMEM;
                r->offset = o;
                s = realloc(r->sorted, m * sizeof *s);
                if (!s)
                        return -ENOMEM;
                r->sorted = s;
                r->allocated = m;
        }
        memmove(r->sorted + at + 1, r->sorted + at, (r->n - at) * sizeof *r->sorted);
        r->sorted[at] = offset;
        r->offset[r->n++] = offset;
        return 1;
}

/* One line's offset: decimal digits only, at most 20 of them, within 64 bits. */
static int parse_offset(const char *p, size_t len, uint64_t *ret) {
        uint64_t v = 0;

        if (len == 0 || len > 20)
                return -EBADMSG;
        for (size_t i = 0; i < len; i++) {
                unsigned d;

                if (p[i] < '0' || p[i] > '9')
                        return -EBADMSG;
                d = (unsigned) (p[i] - '0');
                if (v > (UINT64_MAX - d) / 10)
                        return -EBADMSG;
                v = v * 10 + d;
        }
        *ret = v;
        return 0;
}

int boot_reads_parse(const char *text, size_t size, BootReads *ret, char *error, size_t error_size) {
        BootReads r = {};
        size_t line = 0;

        if (size > BOOT_READS_FILE_MAX)
                return error_setf(error, error_size, -E2BIG, "the list has %zu bytes, more than %u", size,
                                  BOOT_READS_FILE_MAX);
        for (size_t at = 0, next; at < size; at = next) {
                const char *nl = memchr(text + at, '\n', size - at);
                size_t len = (nl ? (size_t) (nl - text) : size) - at;
                uint64_t offset;
                int k;

                line++;
                next = nl ? (size_t) (nl - text) + 1 : size;
                if (len > 0 && text[at + len - 1] == '\r')
                        len--;
                if (len > 0 && text[at] != '#') {
                        if (parse_offset(text + at, len, &offset) < 0) {
                                boot_reads_done(&r);
                                return error_setf(error, error_size, -EBADMSG,
                                                  "line %zu is not an offset (digits only)", line);
                        }
                        k = boot_reads_add(&r, offset);
                        if (k < 0) {
                                boot_reads_done(&r);
                                if (k == -E2BIG)
                                        return error_setf(error, error_size, k, "more than %d offsets", BOOT_READS_MAX);
                                return error_setf(error, error_size, k, "out of memory at line %zu", line);
                        }
                }
        }
        *ret = r;
        return 0;
}

void boot_reads_done(BootReads *r) {
        free(r->offset);
        free(r->sorted);
        *r = (BootReads) {};
}
