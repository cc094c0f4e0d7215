/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SMBIOS: the entry point and type 11 OEM strings.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "pe-image.h"
#include "smbios.h"
#include "string-fundamental.h"

/* SMBIOS 3.x entry point (DSP0134 7.1.3): its length at 6, the table's maximum size at 0x0c, its
 * 64-bit address at 0x10. */
#define SM3_LENGTH 6
#define SM3_TABLE_SIZE 0x0c
#define SM3_TABLE_ADDRESS 0x10
#define SM3_SIZE_MIN 0x18        /* where the fields we read end */

/* SMBIOS 2.x entry point (7.1.2): its length at 5, the table's length at 0x16 and 32-bit address at 0x18. */
#define SM2_LENGTH 5
#define SM2_TABLE_SIZE 0x16
#define SM2_TABLE_ADDRESS 0x18
#define SM2_SIZE_MIN 0x1c        /* where the fields we read end (the structure is 0x1f; some firmware says 0x1e) */

int smbios_table_from_entry_point(const void *ep, size_t max, uint64_t *ret_address, size_t *ret_size) {
        const uint8_t *p = ep;

        fassert(ep || max == 0);
        fassert(ret_address);
        fassert(ret_size);

        if (max >= SM3_SIZE_MIN && fmemcmp(p, "_SM3_", 5) == 0) {
                if (p[SM3_LENGTH] < SM3_SIZE_MIN || p[SM3_LENGTH] > max)
                        return -EBADMSG;
                *ret_address = pe_le32(p + SM3_TABLE_ADDRESS) | (uint64_t) pe_le32(p + SM3_TABLE_ADDRESS + 4) << 32;
                *ret_size = pe_le32(p + SM3_TABLE_SIZE);
                return 0;
        }
        if (max >= SM2_SIZE_MIN && fmemcmp(p, "_SM_", 4) == 0) {
                if (p[SM2_LENGTH] < SM2_SIZE_MIN || p[SM2_LENGTH] > max)
                        return -EBADMSG;
                *ret_address = pe_le32(p + SM2_TABLE_ADDRESS);
                *ret_size = pe_le16(p + SM2_TABLE_SIZE);
                return 0;
        }
        return -EBADMSG;
}

/* The structure at off: its type, formatted length, and where its strings start and the next one begins.
 * @ret 0, -EBADMSG when it runs past the table */
static int structure_at(const uint8_t *p, size_t size, size_t off, uint8_t *ret_type, size_t *ret_strings,
                        size_t *ret_next) {
        uint8_t len = p[off + 1];
        size_t s;

        if (len < 4 || off + len > size)
                return -EBADMSG;
        *ret_type = p[off];
        *ret_strings = s = off + len;
        /* the string set: NUL-terminated strings, ended by an empty one (so "\0\0" at least) */
        if (s + 1 < size && p[s] == 0 && p[s + 1] == 0) {
                *ret_next = s + 2;
                return 0;
        }
        for (;;) {
                while (s < size && p[s])
                        s++;
                if (s + 1 >= size)
                        return -EBADMSG;
                if (p[s + 1] == 0) {
                        *ret_next = s + 2;
                        return 0;
                }
                s++;
        }
}

int smbios_oem_strings_foreach(const void *table, size_t size, smbios_string_cb cb, void *userdata) {
        const uint8_t *p = table;
        size_t off = 0, s, next;
        uint8_t type;

        fassert(table || size == 0);

        for (; off + 4 <= size; off = next) {
                if (structure_at(p, size, off, &type, &s, &next) < 0)
                        return -EBADMSG;
                if (type == 11)
                        for (; p[s] != 0; s += fstrlen((const char *) p + s) + 1) {
                                int r = cb((const char *) p + s, fstrlen((const char *) p + s), userdata);
                                if (r != 0)
                                        return r;
                        }
                if (type == 127) /* end of table */
                        return 0;
        }
        return 0;
}

int smbios_structure_string(const void *table, size_t size, uint8_t type, size_t length_min, size_t field,
                            const char **ret) {
        const uint8_t *p = table;
        size_t off = 0, s, next;
        uint8_t t;

        fassert(table || size == 0);
        fassert(ret);

        for (; off + 4 <= size; off = next) {
                if (structure_at(p, size, off, &t, &s, &next) < 0)
                        return -EBADMSG;
                if (t == type) {
                        /* the first of its type counts; one too short to have the field has none */
                        if (p[off + 1] < length_min || field >= p[off + 1] || p[off + field] == 0)
                                return -ENOENT;
                        for (size_t i = 1; p[s] != 0; i++, s += fstrlen((const char *) p + s) + 1)
                                if (i == p[off + field]) {
                                        *ret = (const char *) p + s;
                                        return 0;
                                }
                        return -ENOENT;
                }
                if (t == 127)
                        break;
        }
        return -ENOENT;
}

bool smbios_entry_split(const char *s, size_t n, const char **ret_name, size_t *ret_name_len, const char **ret_body,
                        size_t *ret_body_len) {
        size_t prefix = fstrlen(SMBIOS_ENTRIES_EXTRA_PREFIX), eq;

        fassert(s || n == 0);
        fassert(ret_name);
        fassert(ret_name_len);
        fassert(ret_body);
        fassert(ret_body_len);

        if (n <= prefix || fmemcmp(s, SMBIOS_ENTRIES_EXTRA_PREFIX, prefix) != 0)
                return false;
        for (eq = prefix; eq < n && s[eq] != '='; eq++)
                ;
        if (eq == n || eq == prefix)
                return false;
        *ret_name = s + prefix;
        *ret_name_len = eq - prefix;
        *ret_body = s + eq + 1;
        *ret_body_len = n - eq - 1;
        return true;
}
