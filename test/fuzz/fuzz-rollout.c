/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the rollout variable's text (root can write it in the booted system; the boot manager reads
 * it before every start). Oracle: what is read formats to text within ROLLOUT_TEXT_MAX that reads back as
 * the same; every record has a valid ID and counts within bounds; the choice among the store's own IDs is
 * never an entry without tries, and counting a start of it never fails for lack of them. The same bytes as
 * the running-version variable: what is accepted has a valid ID and printable reason, and writes back as the
 * very bytes read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rollout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static char text[ROLLOUT_TEXT_MAX + 1], again[ROLLOUT_TEXT_MAX + 1];
        const char *ids[ROLLOUT_ENTRIES_MAX];
        RolloutStore s, t;
        RolloutChoice c;
        size_t n;

        RolloutRunning run;
        if (rollout_running_parse((const char *) data, size, &run) >= 0) {
                int k = snprintf(again, sizeof again, "%s\n%s\n%s", run.id, rollout_state_to_string(run.state), run.why);

                if (!rollout_id_valid(run.id) || k < 0 || (size_t) k != size || memcmp(again, data, size) != 0)
                        abort();
                for (const char *w = run.why; *w; w++)
                        if (*w < ' ' || *w >= 0x7f)
                                abort();
        }

        rollout_store_parse((const char *) data, size, &s);
        if (s.n > ROLLOUT_ENTRIES_MAX)
                abort();
        for (size_t i = 0; i < s.n; i++) {
                if (!rollout_id_valid(s.records[i].id) || s.records[i].tries_left > ROLLOUT_TRIES_MAX ||
                    s.records[i].tries_done > ROLLOUT_TRIES_MAX)
                        abort();
                ids[i] = s.records[i].id;
        }
        n = rollout_store_format(&s, text, sizeof text);
        if (n > ROLLOUT_TEXT_MAX || strlen(text) != n)
                abort();
        rollout_store_parse(text, n, &t);
        rollout_store_format(&t, again, sizeof again);
        if (t.n != s.n || strcmp(text, again) != 0)
                abort();

        rollout_choose(ids, s.n, &s, &c);
        if (c.index >= 0) {
                RolloutRecord *r = rollout_store_find(&s, ids[c.index]);

                if (!r || (r->state == ROLLOUT_TRIAL && r->tries_left == 0) || rollout_count_start(&s, ids[c.index], 3) < 0)
                        abort();
        }
        return 0;
}
