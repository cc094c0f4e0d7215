/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the rollout variable's text (root can write it in the booted system; the boot manager reads
 * it before every start). Oracle: what is read formats to text within ROLLOUT_TEXT_MAX that reads back as
 * the same; every record has a valid ID, all of which is in the input followed by a blank (an ID cut short at
 * a NUL is not), and counts within bounds; the choice among the store's own IDs is never an entry without
 * tries, and counting a start of it never fails for lack of them. The same bytes as the running-version
 * variable: what is accepted has a valid ID and printable reason, and writes back as the very bytes read. As
 * an entry list's .rollout record, the kept list and the list's information for the booted system
 * (rollout-list.h): what is accepted writes back to text that reads as the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rollout-list.h"
#include "rollout.h"

static bool meta_equal(const RolloutListMeta *a, const RolloutListMeta *b) {
        return a->generation == b->generation && a->made == b->made && a->max_age == b->max_age;
}

/* The entry list's record, the kept form and the information variable round-trip. */
static void check_list(const uint8_t *data, size_t size) {
        char text[ROLLOUT_LIST_INFO_MAX];
        RolloutListMeta m, again;
        RolloutListInfo info, info_again;
        const uint8_t *entries, *entries_again;
        size_t n, entries_size, entries_size_again, kept_size;
        uint8_t *kept;

        if (rollout_list_meta_parse((const char *) data, size, &m) >= 0) {
                n = rollout_list_meta_format(&m, text, sizeof text);
                if (m.generation == 0 || m.generation > ROLLOUT_GENERATION_MAX || n >= ROLLOUT_LIST_META_MAX ||
                    rollout_list_meta_parse(text, n, &again) < 0 || !meta_equal(&m, &again))
                        abort();
        }
        if (rollout_list_cache_parse(data, size, &m, &entries, &entries_size) >= 0) {
                if (entries < data || entries + entries_size != data + size)
                        abort();
                if (rollout_list_cache_make(&m, entries, entries_size, SIZE_MAX, &kept, &kept_size) < 0)
                        abort();
                if (rollout_list_cache_parse(kept, kept_size, &again, &entries_again, &entries_size_again) < 0 ||
                    !meta_equal(&m, &again) || entries_size_again != entries_size ||
                    memcmp(entries_again, entries, entries_size) != 0)
                        abort();
                free(kept);
        }
        if (rollout_list_info_parse((const char *) data, size, &info) >= 0) {
                n = rollout_list_info_format(&info, text, sizeof text);
                if (n >= sizeof text || rollout_list_info_parse(text, n, &info_again) < 0 ||
                    !meta_equal(&info.meta, &info_again.meta) || info.source != info_again.source ||
                    info.refused != info_again.refused)
                        abort();
        }
}

/* Whether id occurs in the input whole: followed by the blank that ends the word. */
static bool id_in_input(const uint8_t *data, size_t size, const char *id) {
        size_t n = strlen(id);

        for (size_t i = 0; i + n < size; i++)
                if (memcmp(data + i, id, n) == 0 && data[i + n] == ' ' && (i == 0 || data[i - 1] == '\n' ||
                                                                         data[i - 1] == ' '))
                        return true;
        return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static char text[ROLLOUT_TEXT_MAX + 1], again[ROLLOUT_TEXT_MAX + 1];
        const char *ids[ROLLOUT_ENTRIES_MAX];
        RolloutStore s, t;
        RolloutChoice c;
        size_t n;

        RolloutRunning run;
        if (rollout_running_parse((const char *) data, size, &run) >= 0) {
                int k = snprintf(again, sizeof again, "%s\n%s\n%s%s%s", run.id, rollout_state_to_string(run.state), run.why,
                                 run.pin[0] ? "\n" : "", run.pin);

                if (!rollout_id_valid(run.id) || k < 0 || (size_t) k != size || memcmp(again, data, size) != 0 ||
                    rollout_running_format(&run, text, sizeof text) != size || memcmp(text, data, size) != 0)
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
                    s.records[i].tries_done > ROLLOUT_TRIES_MAX || s.records[i].fetch_failures > ROLLOUT_TRIES_MAX ||
                    !id_in_input(data, size, s.records[i].id))
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

        rollout_choose(ids, s.n, &s, NULL, &c);
        if (c.index >= 0) {
                RolloutRecord *r = rollout_store_find(&s, ids[c.index]);

                if (!r || (r->state == ROLLOUT_TRIAL && r->tries_left == 0) || rollout_count_start(&s, ids[c.index], 3) < 0)
                        abort();
        }
        check_list(data, size);
        return 0;
}
