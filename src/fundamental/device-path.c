/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UEFI device paths: the URL a program was loaded from.
 */
#include "device-path.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "string-fundamental.h"

int device_path_find_url(const void *dp, size_t max, char **ret) {
        const uint8_t *p = dp;
        size_t off = 0;

        for (;;) {
                uint16_t len;

                if (max - off < 4)
                        return -EBADMSG;
                len = pe_le16(p + off + 2);
                if (len < 4 || len > max - off)
                        return -EBADMSG;
                if (p[off] == DEVICE_PATH_TYPE_END && p[off + 1] == DEVICE_PATH_SUBTYPE_END_ENTIRE)
                        return -ENOENT;
                if (p[off] == DEVICE_PATH_TYPE_MESSAGING && p[off + 1] == DEVICE_PATH_SUBTYPE_URI) {
                        /* The data is Length-4 bytes; an embedded NUL ends the URL early. */
                        char *u = fstrndup((const char *) p + off + 4, (size_t) (len - 4));
                        if (!u)
                                return -ENOMEM;
                        if (!*u) {
                                ffree(u);
                                return -ENOENT;
                        }
                        *ret = u;
                        return 0;
                }
                off += len;
        }
}

int device_path_make_url(const char *url, void **ret, size_t *ret_size) {
        size_t n = fstrlen(url), size;
        uint8_t *p;

        if (n > 0xffff - 4)
                return -E2BIG;
        size = 4 + n + 4;
        p = fmalloc(size);
        if (!p)
                return -ENOMEM;
        p[0] = DEVICE_PATH_TYPE_MESSAGING;
        p[1] = DEVICE_PATH_SUBTYPE_URI;
        p[2] = (uint8_t) ((n + 4) & 0xff);
        p[3] = (uint8_t) ((n + 4) >> 8);
        fmemcpy(p + 4, url, n);
        p[4 + n] = DEVICE_PATH_TYPE_END;
        p[5 + n] = DEVICE_PATH_SUBTYPE_END_ENTIRE;
        p[6 + n] = 4;
        p[7 + n] = 0;
        *ret = p;
        *ret_size = size;
        return 0;
}
