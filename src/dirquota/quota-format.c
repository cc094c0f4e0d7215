/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemctl's way of writing sizes and the directory quota status lines.
 */
#include <assert.h>
#include <inttypes.h>

#include "macro.h"
#include "quota-format.h"

const char *quota_format_bytes(char buf[static QUOTA_FORMAT_BYTES_MAX], uint64_t bytes) {
        static const struct {
                const char *suffix;
                uint64_t factor;
        } units[] = {
                { "E", UINT64_C(1) << 60 },
                { "P", UINT64_C(1) << 50 },
                { "T", UINT64_C(1) << 40 },
                { "G", UINT64_C(1) << 30 },
                { "M", UINT64_C(1) << 20 },
                { "K", UINT64_C(1) << 10 },
        };
        const size_t n = ELEMENTSOF(units);

        assert(buf);

        if (bytes == UINT64_MAX)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                uint64_t tenth;

                if (bytes < units[i].factor)
                        continue;
                /* the decimal is cut, not rounded, computed from the next unit down, and left out when 0 */
                tenth = i + 1 < n ? (bytes / units[i + 1].factor * 10 / units[n - 1].factor) % 10 :
                                    (bytes * 10 / units[i].factor) % 10;
                if (tenth > 0)
                        snprintf(buf, QUOTA_FORMAT_BYTES_MAX, "%" PRIu64 ".%" PRIu64 "%s", bytes / units[i].factor,
                                 tenth, units[i].suffix);
                else
                        snprintf(buf, QUOTA_FORMAT_BYTES_MAX, "%" PRIu64 "%s", bytes / units[i].factor,
                                 units[i].suffix);
                return buf;
        }
        snprintf(buf, QUOTA_FORMAT_BYTES_MAX, "%" PRIu64 "B", bytes);
        return buf;
}

void quota_print_status_line(FILE *f, const char *type_name, uint64_t usage, uint64_t limit) {
        char a[QUOTA_FORMAT_BYTES_MAX], b[QUOTA_FORMAT_BYTES_MAX];

        assert(f);
        assert(type_name);

        if (usage == UINT64_MAX)
                return;
        fprintf(f, "        %s: %s", type_name, quota_format_bytes(a, usage));
        if (limit != UINT64_MAX)
                fprintf(f, " (max: %s)", quota_format_bytes(b, limit));
        fputc('\n', f);
}
