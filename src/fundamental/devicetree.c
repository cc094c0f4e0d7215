/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "devicetree.h"
#include "string-fundamental.h"

#define FDT_MAGIC 0xd00dfeedU

/* The header's big-endian words (5.2) */
enum { HDR_MAGIC, HDR_TOTALSIZE, HDR_OFF_STRUCT, HDR_OFF_STRINGS, HDR_OFF_RSVMAP, HDR_VERSION,
       HDR_LAST_COMP_VERSION, HDR_BOOT_CPUID, HDR_SIZE_STRINGS, HDR_SIZE_STRUCT };

/* The structure block's tokens (5.4.1) */
enum { FDT_BEGIN_NODE = 1, FDT_END_NODE = 2, FDT_PROP = 3, FDT_NOP = 4, FDT_END = 9 };

static uint32_t be32(const uint8_t *p) {
        return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

static uint32_t header_word(const uint8_t *blob, unsigned word) {
        return be32(blob + 4 * word);
}

int fdt_total_size(const void *blob, size_t max, size_t *ret) {
        fassert(blob || max == 0);
        fassert(ret);

        if (max < FDT_HEADER_SIZE || header_word(blob, HDR_MAGIC) != FDT_MAGIC)
                return -EBADMSG;
        *ret = header_word(blob, HDR_TOTALSIZE);
        return 0;
}

/* Whether the name at strings[off] (strings: n bytes) is "compatible" */
static bool name_is_compatible(const uint8_t *strings, size_t n, uint32_t off) {
        static const char want[] = "compatible";

        return off < n && n - off >= sizeof want && fmemcmp(strings + off, want, sizeof want) == 0;
}

int fdt_root_compatible(const void *blob, size_t size, const char **ret) {
        const uint8_t *b = blob;
        size_t total;

        fassert(ret);

        if (fdt_total_size(blob, size, &total) < 0 || total > size || total < FDT_HEADER_SIZE)
                return -EBADMSG;
        uint64_t st = header_word(b, HDR_OFF_STRUCT), st_n = header_word(b, HDR_SIZE_STRUCT),
                 str = header_word(b, HDR_OFF_STRINGS), str_n = header_word(b, HDR_SIZE_STRINGS);
        if (st % 4 || st_n % 4 || st + st_n > total || str + str_n > total)
                return -EBADMSG;

        const uint8_t *s = b + st, *strings = b + str;
        size_t pos = 0;

        /* the root: BEGIN_NODE with an empty name (one word of zeros), NOPs allowed before */
        while (pos + 4 <= st_n && be32(s + pos) == FDT_NOP)
                pos += 4;
        if (pos + 8 > st_n || be32(s + pos) != FDT_BEGIN_NODE || s[pos + 4] != 0)
                return -EBADMSG;
        pos += 8;
        for (;;) {
                if (pos + 4 > st_n)
                        return -EBADMSG;
                uint32_t token = be32(s + pos);
                if (token == FDT_NOP) {
                        pos += 4;
                        continue;
                }
                if (token != FDT_PROP)          /* a child, the root's end: no compatible before it */
                        return token == FDT_BEGIN_NODE || token == FDT_END_NODE ? -ENOENT : -EBADMSG;
                if (pos + 12 > st_n)
                        return -EBADMSG;
                uint32_t len = be32(s + pos + 4), name = be32(s + pos + 8);
                pos += 12;
                if (len > st_n - pos)
                        return -EBADMSG;
                if (name_is_compatible(strings, str_n, name)) {
                        /* a string list: the first string ends at its NUL, and the value ends with one */
                        if (len == 0 || s[pos + len - 1] != 0)
                                return -EBADMSG;
                        *ret = (const char *) s + pos;
                        return 0;
                }
                pos += (len + 3) & ~(size_t) 3;
        }
}
