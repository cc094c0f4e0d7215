/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The rollout's entry list as the booted system sees it.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "efivars.h"
#include "macro.h"
#include "rollout-list-view.h"
#include "time-span.h"

int rollout_list_view_load(RolloutListInfo *ret) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        int r;

        assert(ret);

        r = efi_get_variable(URLBOOT_VAR_ROLLOUT_LIST, EFI_VENDOR_URLBOOT_STR, NULL, (void **) &text, &size);
        if (r < 0)
                return r == -ENOENT ? r : -ENOENT;
        return rollout_list_info_parse(text, size, ret) < 0 ? -EBADMSG : 0;
}

RolloutListAge rollout_list_view_describe(const RolloutListInfo *i, uint64_t now, char *buf, size_t size) {
        char made[32] = "?", age_text[TIME_SPAN_MAX], limit[TIME_SPAN_MAX];
        time_t t = (time_t) i->meta.made;
        struct tm tm;
        uint64_t age;
        RolloutListAge verdict;
        int n;

        assert(i);
        assert(buf);

        if (gmtime_r(&t, &tm))
                strftime(made, sizeof made, "%Y-%m-%d %H:%M UTC", &tm);
        verdict = rollout_list_age(&i->meta, now, &age);
        n = snprintf(buf, size, "generation %llu (%s), made %s", (unsigned long long) i->meta.generation,
                     rollout_list_source_to_string(i->source) ?: "?", made);
        if (n < 0 || (size_t) n >= size)
                return verdict;
        if (verdict == ROLLOUT_LIST_FROM_FUTURE)
                n += snprintf(buf + n, size - (size_t) n, ", in the future");
        else
                n += snprintf(buf + n, size - (size_t) n, ", %s ago", time_span_format(age, age_text, sizeof age_text));
        if ((size_t) n < size && i->meta.max_age > 0)
                n += snprintf(buf + n, size - (size_t) n, " (max-age %s)",
                              time_span_format(i->meta.max_age, limit, sizeof limit));
        if ((size_t) n < size && i->refused > 0)
                snprintf(buf + n, size - (size_t) n, "; refused an older generation %llu",
                         (unsigned long long) i->refused);
        return verdict;
}

const char *rollout_list_view_warning(RolloutListAge age) {
        switch (age) {
        case ROLLOUT_LIST_EXPIRED:
                return "the rollout's entry list is older than its max-age: the server may be serving a frozen list, "
                       "or its publisher stopped; check the server";
        case ROLLOUT_LIST_FROM_FUTURE:
                return "the rollout's entry list says it was made in the future: this clock or the publisher's is wrong";
        default:
                return NULL;
        }
}
