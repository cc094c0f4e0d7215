/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Time spans in whole seconds: parsed from and formatted for administrators.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "time-span.h"

typedef struct Unit {
        const char *name;
        uint64_t sec;
} Unit;

/* Longest names first where one is the start of another ("min" before "m", "months" is not taken). */
static const Unit units[] = {
        { "seconds", 1 }, { "second", 1 }, { "sec", 1 }, { "s", 1 },
        { "minutes", 60 }, { "minute", 60 }, { "min", 60 }, { "m", 60 },
        { "hours", 3600 }, { "hour", 3600 }, { "hr", 3600 }, { "h", 3600 },
        { "days", 86400 }, { "day", 86400 }, { "d", 86400 },
        { "weeks", 604800 }, { "week", 604800 }, { "w", 604800 },
};

/* The unit at *p (none: seconds); *p moves past it. @ret its seconds, 0 for an unknown word */
static uint64_t unit_parse(const char **p) {
        size_t n = strcspn(*p, " \t0123456789");

        if (n == 0)
                return 1;
        for (size_t i = 0; i < ELEMENTSOF(units); i++)
                if (strlen(units[i].name) == n && strncmp(*p, units[i].name, n) == 0) {
                        *p += n;
                        return units[i].sec;
                }
        return 0;
}

int time_span_parse(const char *s, uint64_t *ret_sec) {
        uint64_t total = 0;
        bool any = false;

        assert(s);
        assert(ret_sec);

        for (const char *p = s;;) {
                uint64_t v = 0, unit;

                p += strspn(p, " \t");
                if (!*p)
                        break;
                if (*p < '0' || *p > '9')
                        return -EINVAL;
                for (; *p >= '0' && *p <= '9'; p++) {
                        if (v > (UINT64_MAX - (uint64_t) (*p - '0')) / 10)
                                return -ERANGE;
                        v = v * 10 + (uint64_t) (*p - '0');
                }
                p += strspn(p, " \t");
                unit = unit_parse(&p);
                if (unit == 0)
                        return -EINVAL;
                if (v > (UINT64_MAX - total) / unit)
                        return -ERANGE;
                total += v * unit;
                any = true;
        }
        if (!any)
                return -EINVAL;
        *ret_sec = total;
        return 0;
}

char *time_span_format(uint64_t sec, char *buf, size_t size) {
        static const Unit shown[] = { { "w", 604800 }, { "d", 86400 }, { "h", 3600 }, { "min", 60 }, { "s", 1 } };
        size_t off = 0;
        int parts = 0;

        assert(buf && size >= TIME_SPAN_MAX);

        buf[0] = 0;
        for (size_t i = 0; i < ELEMENTSOF(shown) && parts < 2; i++) {
                uint64_t n = sec / shown[i].sec;

                if (n == 0 && !(parts == 0 && i == ELEMENTSOF(shown) - 1))
                        continue;
                off += (size_t) snprintf(buf + off, size - off, "%s%llu%s", parts ? " " : "", (unsigned long long) n,
                                         shown[i].name);
                sec -= n * shown[i].sec;
                parts++;
        }
        return buf;
}
