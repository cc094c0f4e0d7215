/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The hardware watchdog of a version on trial: whether its command line hands it to systemd, and the
 * register values that make the hardware count a given time.
 */
#include "assert-fundamental.h"
#include "string-fundamental.h"
#include "trial-watchdog.h"

#define KEY "systemd.watchdog_sec="
#define ESB_PRELOAD_MAX 0xfffffU

static bool is_blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A value that switches systemd's runtime watchdog off: "0", "off", or a time span of zeros ("0s", "00min"). */
static bool value_is_off(const char *v, size_t n) {
        size_t digits = 0;

        if (n == 0 || (n == 3 && fmemcmp(v, "off", 3) == 0))
                return true;
        while (digits < n && v[digits] == '0')
                digits++;
        if (digits == 0)
                return false;
        /* zeros, then only a unit: letters */
        for (size_t i = digits; i < n; i++)
                if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z')))
                        return false;
        return true;
}

bool trial_watchdog_cmdline_hands_over(const char *cmdline, size_t n) {
        const size_t kn = sizeof(KEY) - 1;
        bool on = false;

        fassert(cmdline || n == 0);

        for (size_t i = 0; i < n;) {
                size_t start, end;

                while (i < n && is_blank(cmdline[i]))
                        i++;
                start = i;
                while (i < n && cmdline[i] && !is_blank(cmdline[i]))
                        i++;
                end = i;
                if (i < n && !cmdline[i])
                        n = i;  /* a NUL ends the text */
                if (end - start >= kn && fmemcmp(cmdline + start, KEY, kn) == 0)
                        on = !value_is_off(cmdline + start + kn, end - start - kn);
        }
        return on;
}

uint32_t trial_watchdog_esb_preload(unsigned seconds) {
        uint64_t v = (uint64_t) seconds << 9;

        return v > ESB_PRELOAD_MAX ? ESB_PRELOAD_MAX : v == 0 ? 1 : (uint32_t) v;
}
