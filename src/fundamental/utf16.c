/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * UTF-8 <-> UTF-16LE conversion.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "utf16.h"

#define REPLACEMENT_CHARACTER 0xfffdU

static uint16_t get_le16(const uint8_t *p) {
        return (uint16_t) (p[0] | (p[1] << 8));
}

static void put_le16(uint8_t *p, uint16_t v) {
        p[0] = (uint8_t) (v & 0xff);
        p[1] = (uint8_t) (v >> 8);
}

static size_t utf8_encoded_length(uint32_t cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static size_t utf8_encode(uint32_t cp, char *out) {
        size_t n = utf8_encoded_length(cp);

        switch (n) {
        case 1:
                out[0] = (char) cp;
                break;
        case 2:
                out[0] = (char) (0xc0 | (cp >> 6));
                out[1] = (char) (0x80 | (cp & 0x3f));
                break;
        case 3:
                out[0] = (char) (0xe0 | (cp >> 12));
                out[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
                out[2] = (char) (0x80 | (cp & 0x3f));
                break;
        default:
                out[0] = (char) (0xf0 | (cp >> 18));
                out[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
                out[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
                out[3] = (char) (0x80 | (cp & 0x3f));
                break;
        }
        return n;
}

/* Decodes the code point at unit index i of n; returns units consumed (0 at NUL). */
static size_t utf16_decode(const uint8_t *p, size_t n, size_t i, uint32_t *ret_cp) {
        uint16_t u = get_le16(p + 2 * i), v;

        if (u == 0)
                return 0;
        if (u >= 0xd800 && u <= 0xdbff && i + 1 < n) {
                v = get_le16(p + 2 * (i + 1));
                if (v >= 0xdc00 && v <= 0xdfff) {
                        *ret_cp = 0x10000U + (((uint32_t) u - 0xd800U) << 10) + ((uint32_t) v - 0xdc00U);
                        return 2;
                }
        }
        *ret_cp = (u >= 0xd800 && u <= 0xdfff) ? REPLACEMENT_CHARACTER : u;
        return 1;
}

int utf16le_to_utf8(const void *buf, size_t size, char **ret) {
        const uint8_t *p = buf;
        size_t n = size / 2, len = 0, i, k;
        uint32_t cp;
        char *out;

        fassert(buf || size == 0);
        fassert(ret);

        for (i = 0; i < n; i += k) {
                k = utf16_decode(p, n, i, &cp);
                if (k == 0)
                        break;
                len += utf8_encoded_length(cp);
        }

        out = fmalloc(len + 1);
        if (!out)
                return -ENOMEM;

        len = 0;
        for (i = 0; i < n; i += k) {
                k = utf16_decode(p, n, i, &cp);
                if (k == 0)
                        break;
                len += utf8_encode(cp, out + len);
        }
        out[len] = 0;

        *ret = out;
        return 0;
}

int utf8_decode(const char *s, size_t len, uint32_t *ret_cp) {
        const uint8_t *p = (const uint8_t *) s;
        uint32_t cp, min;
        size_t n;

        fassert(s || len == 0);
        fassert(ret_cp);

        if (len == 0)
                return -EILSEQ;

        if (p[0] < 0x80) {
                *ret_cp = p[0];
                return 1;
        } else if ((p[0] & 0xe0) == 0xc0) {
                n = 2, cp = p[0] & 0x1fU, min = 0x80;
        } else if ((p[0] & 0xf0) == 0xe0) {
                n = 3, cp = p[0] & 0x0fU, min = 0x800;
        } else if ((p[0] & 0xf8) == 0xf0) {
                n = 4, cp = p[0] & 0x07U, min = 0x10000;
        } else
                return -EILSEQ;

        if (len < n)
                return -EILSEQ;
        for (size_t i = 1; i < n; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return -EILSEQ;
                cp = (cp << 6) | (p[i] & 0x3fU);
        }

        /* Overlong forms, UTF-16 surrogates and code points beyond Unicode are not text. */
        if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
                return -EILSEQ;

        *ret_cp = cp;
        return (int) n;
}

bool utf8_is_valid(const char *s, size_t len) {
        uint32_t cp;

        fassert(s || len == 0);

        for (size_t i = 0; i < len;) {
                int k = utf8_decode(s + i, len - i, &cp);
                if (k < 0)
                        return false;
                i += (size_t) k;
        }
        return true;
}

int utf8_to_utf16le(const char *s, size_t len, void **ret, size_t *ret_size) {
        size_t units = 0, i, j;
        uint32_t cp;
        uint8_t *out;
        int k;

        fassert(s || len == 0);
        fassert(ret);
        fassert(ret_size);

        for (i = 0; i < len; i += (size_t) k) {
                k = utf8_decode(s + i, len - i, &cp);
                if (k < 0)
                        return k;
                units += cp >= 0x10000 ? 2 : 1;
        }

        out = fmalloc((units + 1) * 2);
        if (!out)
                return -ENOMEM;

        for (i = 0, j = 0; i < len; i += (size_t) k) {
                k = utf8_decode(s + i, len - i, &cp);
                if (cp >= 0x10000) {
                        cp -= 0x10000;
                        put_le16(out + 2 * j++, (uint16_t) (0xd800 + (cp >> 10)));
                        put_le16(out + 2 * j++, (uint16_t) (0xdc00 + (cp & 0x3ff)));
                } else
                        put_le16(out + 2 * j++, (uint16_t) cp);
        }
        put_le16(out + 2 * j, 0);

        *ret = out;
        *ret_size = (units + 1) * 2;
        return 0;
}
