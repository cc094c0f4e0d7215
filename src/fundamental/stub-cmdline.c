/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemd-stub's rules for load options and command lines.
 */
#include "assert-fundamental.h"
#include "stub-cmdline.h"

/* Control characters, space and DEL: what the clean-up treats as blanks. */
static bool is_blank(uint16_t c) {
        return c <= 0x20 || c == 0x7f;
}

bool stub_options_are_text(const uint16_t *o, size_t n) {
        fassert(o || n == 0);

        for (size_t i = 0; i < n && o[i] != 0; i++)
                if (o[i] < 0x20)
                        return false;
        return true;
}

size_t stub_options_profile(const uint16_t *o, size_t n, unsigned *ret_profile) {
        uint64_t p = 0;
        size_t i = 1;

        fassert(o || n == 0);
        fassert(ret_profile);

        *ret_profile = 0;
        if (n < 2 || o[0] != '@' || o[1] < '0' || o[1] > '9')
                return 0;
        for (; i < n && o[i] >= '0' && o[i] <= '9'; i++) {
                p = p * 10 + (o[i] - '0');
                if (p > UINT32_MAX)
                        return 0;
        }
        /* exactly one space may follow, or nothing: "@1x" is a command line, not a selector */
        if (i < n && o[i] != 0 && o[i] != ' ')
                return 0;
        *ret_profile = (unsigned) p;
        return i < n && o[i] == ' ' ? i + 1 : i;
}

size_t stub_cmdline_mangle(uint16_t *s, size_t n) {
        size_t in = 0, out = 0, end = 0;

        fassert(s || n == 0);

        while (in < n && s[in] != 0 && is_blank(s[in]))
                in++;
        for (; in < n && s[in] != 0; in++) {
                if (is_blank(s[in])) {
                        s[out++] = ' ';
                        continue;
                }
                s[out++] = s[in];
                end = out;      /* after the last character that is not blank */
        }
        return end;
}
