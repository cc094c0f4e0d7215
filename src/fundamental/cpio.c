/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * newc cpio archives for initrds.
 */
#include "assert-fundamental.h"
#include "cpio.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

#define CPIO_HEADER_SIZE 110    /* "070701" and 13 fields of 8 hex digits */

/* The end record exactly as systemd-stub writes it: its name size in upper case ("0000000B"), unlike
 * the other records' fields. The bytes are measured, so they must be the same. */
static const char trailer[] =
        "070701" "00000000" "00000000" "00000000" "00000000" "00000001" "00000000" "00000000" "00000000"
        "00000000" "00000000" "00000000" "0000000B" "00000000" "TRAILER!!!\0\0\0";
#define S_IFDIR_BITS 0040000U
#define S_IFREG_BITS 0100000U

void cpio_sort(CpioFile *files, size_t n) {
        fassert(files || n == 0);

        for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && fstrcmp(files[j - 1].name, files[j].name) > 0; j--) {
                        CpioFile t = files[j];
                        files[j] = files[j - 1];
                        files[j - 1] = t;
                }
}

/* The size of one record: header and name (with its NUL) padded to 4, then the data padded to 4. */
static size_t record_size(size_t name_size, size_t data_size) {
        return ALIGN_TO(CPIO_HEADER_SIZE + name_size, (size_t) 4) + ALIGN_TO(data_size, (size_t) 4);
}

typedef struct Writer {
        uint8_t *p;
        size_t off;
        uint32_t inode;
} Writer;

static void write_hex8(Writer *w, uint32_t v) {
        static const char hex[] = "0123456789abcdef";

        for (size_t i = 0; i < 8; i++)
                w->p[w->off + i] = (uint8_t) hex[(v >> (28 - 4 * i)) & 15];
        w->off += 8;
}

static void write_bytes(Writer *w, const void *data, size_t n) {
        fmemcpy(w->p + w->off, data, n);
        w->off += n;
}

static void pad4(Writer *w) {
        while (w->off % 4)
                w->p[w->off++] = 0;
}

/* One record; name is name1 followed by name2 (either may be empty), then a NUL. */
static void write_record(Writer *w, uint32_t inode, uint32_t mode, const char *name1, const char *name2,
                         const void *data, size_t size) {
        size_t n1 = fstrlen(name1), n2 = fstrlen(name2);
        uint32_t fields[13] = { inode, mode, 0, 0, 1, 0, (uint32_t) size, 0, 0, 0, 0, (uint32_t) (n1 + n2 + 1), 0 };

        write_bytes(w, "070701", 6);
        for (size_t i = 0; i < ELEMENTSOF(fields); i++)
                write_hex8(w, fields[i]);
        write_bytes(w, name1, n1);
        write_bytes(w, name2, n2);
        w->p[w->off++] = 0;
        pad4(w);
        write_bytes(w, data, size);
        pad4(w);
}

int cpio_pack(const char *target_dir, uint32_t dir_mode, uint32_t file_mode, const CpioFile *files, size_t n,
              void **ret, size_t *ret_size) {
        size_t dir_len = fstrlen(target_dir), total = 0;
        Writer w = { .inode = 1 };
        char prefix[256];

        fassert(target_dir);
        fassert(files || n == 0);
        fassert(ret);
        fassert(ret_size);

        if (dir_len + 2 > sizeof prefix)
                return -E2BIG;
        /* a directory record for every prefix of target_dir, the last with dir_mode */
        for (size_t i = 1; i <= dir_len; i++)
                if (i == dir_len || target_dir[i] == '/')
                        total += record_size(i + 1, 0);
        for (size_t i = 0; i < n; i++) {
                if (files[i].size >= UINT32_MAX)
                        return -E2BIG;
                total += record_size(dir_len + 1 + fstrlen(files[i].name) + 1, files[i].size);
        }
        total += sizeof trailer;        /* 124: its terminating NUL is the fourth padding byte */

        w.p = fmalloc(total);
        if (!w.p)
                return -ENOMEM;
        for (size_t i = 1; i <= dir_len; i++) {
                if (i != dir_len && target_dir[i] != '/')
                        continue;
                fmemcpy(prefix, target_dir, i);
                prefix[i] = 0;
                write_record(&w, w.inode++, S_IFDIR_BITS | (i == dir_len ? dir_mode : 0555), prefix, "", NULL, 0);
        }
        fmemcpy(prefix, target_dir, dir_len);
        prefix[dir_len] = '/';
        prefix[dir_len + 1] = 0;
        for (size_t i = 0; i < n; i++)
                write_record(&w, w.inode++, S_IFREG_BITS | file_mode, prefix, files[i].name, files[i].data,
                             files[i].size);
        write_bytes(&w, trailer, sizeof trailer);
        *ret = w.p;
        *ret_size = w.off;
        return 0;
}
