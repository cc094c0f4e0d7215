/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fuzz target: unit files as urlboot-dirquota-generator reads them (every service unit and drop-in of the
 * system, as root at boot), and the quota values in them. Oracles: the reader's assignments, written out
 * again as a unit file, read back the same (so no value keeps a newline, a continuation or surrounding
 * whitespace, no key an "="); the settings hold v258's invariants.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "macro.h"
#include "string-util.h"
#include "unit-file.h"
#include "unit-settings.h"

typedef struct Collected {
        char **items;           /* section, key, value, … */
} Collected;

static int collect(const char *section, const char *key, const char *value, unsigned line, void *userdata) {
        Collected *c = userdata;

        if (strv_extend(&c->items, section) < 0 || strv_extend(&c->items, key) < 0 ||
            strv_extend(&c->items, value) < 0)
                return -ENOMEM;
        return 0;
}

static char *render(char **items) {
        char *text = strdup(""), *section = NULL;

        for (size_t i = 0; text && items && items[i]; i += 3) {
                if (!section || !streq(section, items[i])) {
                        section = items[i];
                        if (!strextend(&text, "[", section, "]\n", NULL))
                                return NULL;
                }
                /* as the generator writes commands back: a space guards a trailing backslash */
                if (!strextend(&text, items[i + 1], "=", items[i + 2],
                               unit_file_line_continues(items[i + 2]) ? " \n" : "\n", NULL))
                        return NULL;
        }
        return text;
}

static void check_round_trip(const char *text, size_t size) {
        Collected first = {}, second = {};
        _cleanup_free_ char *again = NULL;

        if (unit_file_parse_text(text, size, collect, &first) < 0)
                goto out;
        again = render(first.items);
        if (!again)
                goto out;
        if (unit_file_parse_text(again, strlen(again), collect, &second) < 0)
                abort();
        if (strv_length(first.items) != strv_length(second.items))
                abort();
        for (size_t i = 0; first.items && first.items[i]; i++)
                if (!streq(first.items[i], second.items[i]))
                        abort();
out:
        strv_free(first.items);
        strv_free(second.items);
}

static void check_settings(const char *text, size_t size) {
        UnitSettings s = UNIT_SETTINGS_INIT;

        if (unit_settings_add_text(&s, "fuzz", text, size) >= 0)
                for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++) {
                        const QuotaLimit *q = &s.limits[t];

                        /* a value is either bytes or a share, never both; "off" clears both */
                        if (q->absolute != UINT64_MAX && q->scale != UINT32_MAX)
                                abort();
                        if (!q->enforce && (q->absolute != UINT64_MAX || q->scale != UINT32_MAX))
                                abort();
                        STRV_FOREACH(d, s.directories[t])
                                if (isempty(*d))
                                        abort();
                }
        unit_settings_done(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        check_round_trip((const char *) data, size);
        check_settings((const char *) data, size);
        return 0;
}
