/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * SMBIOS type 11 OEM strings.
 */
#include "errno-fundamental.h"
#include "smbios.h"
#include "string-fundamental.h"

int smbios_oem_strings_foreach(const void *table, size_t size, smbios_string_cb cb, void *userdata) {
        const uint8_t *p = table;
        size_t off = 0;

        while (off + 4 <= size) {
                uint8_t type = p[off], len = p[off + 1];
                size_t s;

                if (len < 4 || off + len > size)
                        return -EBADMSG;
                s = off + len;
                /* The string set: NUL-terminated strings, ended by an empty one (so "\0\0" at least). */
                if (s + 1 < size && p[s] == 0 && p[s + 1] == 0) {
                        off = s + 2;
                        goto next;
                }
                for (;;) {
                        size_t e = s;
                        while (e < size && p[e])
                                e++;
                        if (e >= size)
                                return -EBADMSG;
                        if (type == 11) {
                                int r = cb((const char *) p + s, e - s, userdata);
                                if (r != 0)
                                        return r;
                        }
                        s = e + 1;
                        if (s >= size)
                                return -EBADMSG;
                        if (p[s] == 0) {
                                off = s + 1;
                                break;
                        }
                }
        next:
                if (type == 127) /* end of table */
                        return 0;
        }
        return 0;
}

bool smbios_entry_split(const char *s, size_t n, const char **ret_name, size_t *ret_name_len, const char **ret_body,
                        size_t *ret_body_len) {
        size_t prefix = fstrlen(SMBIOS_ENTRIES_EXTRA_PREFIX), eq;

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
