/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A rollout's entry list: its .rollout record, the form the boot manager keeps, the generation rule and
 * the age the booted system judges.
 */
#include "assert-fundamental.h"
#include "conf-line.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "rollout-list.h"
#include "string-fundamental.h"

static const char *const source_names[_ROLLOUT_LIST_SOURCE_MAX] = {
        [ROLLOUT_LIST_FETCHED] = "fetched",
        [ROLLOUT_LIST_KEPT] = "kept",
        [ROLLOUT_LIST_KEPT_REFUSED] = "kept-refused-older",
};

const char *rollout_list_source_to_string(RolloutListSource s) {
        return s < _ROLLOUT_LIST_SOURCE_MAX ? source_names[s] : NULL;
}

/* Which keys were seen, so that one given twice is an error rather than a silent second word. */
enum {
        SEEN_GENERATION = 1 << 0,
        SEEN_MADE = 1 << 1,
        SEEN_MAX_AGE = 1 << 2,
        SEEN_SOURCE = 1 << 3,
        SEEN_REFUSED = 1 << 4,
};

static int parse_number(const ConfLine *l, uint64_t max, unsigned bit, unsigned *seen, uint64_t *ret) {
        if (*seen & bit)
                return -EINVAL;
        *seen |= bit;
        return fparse_uint64(l->value, l->value_len, max, ret) < 0 ? -EINVAL : 0;
}

/* One line of a .rollout text; *handled says whether the key was one of the record's. */
static int parse_meta_line(const ConfLine *l, RolloutListMeta *m, unsigned *seen, bool *handled) {
        *handled = true;
        if (conf_line_key_is(l, "generation"))
                return parse_number(l, ROLLOUT_GENERATION_MAX, SEEN_GENERATION, seen, &m->generation);
        if (conf_line_key_is(l, "made"))
                return parse_number(l, ROLLOUT_GENERATION_MAX, SEEN_MADE, seen, &m->made);
        if (conf_line_key_is(l, "max-age"))
                return parse_number(l, ROLLOUT_GENERATION_MAX, SEEN_MAX_AGE, seen, &m->max_age);
        *handled = false;
        return 0;
}

static int meta_check(const RolloutListMeta *m, unsigned seen) {
        if (!(seen & SEEN_GENERATION) || !(seen & SEEN_MADE))
                return -EBADMSG;
        return m->generation == 0 ? -EINVAL : 0;
}

int rollout_list_meta_parse(const char *text, size_t size, RolloutListMeta *ret) {
        RolloutListMeta m = {};
        unsigned seen = 0;
        size_t pos = 0;
        ConfLine l;
        bool handled;
        int r;

        fassert(text || size == 0);
        fassert(ret);

        /* a NUL ends the text: what follows it is no part of what was signed as text */
        size = fstrnlen(text ?: "", size);
        while (conf_line_next(text, size, &pos, " \t", &l)) {
                r = parse_meta_line(&l, &m, &seen, &handled);
                if (r < 0)
                        return r;
        }
        r = meta_check(&m, seen);
        if (r < 0)
                return r;
        *ret = m;
        return 0;
}

size_t rollout_list_meta_format(const RolloutListMeta *m, char *buf, size_t size) {
        fassert(m);
        fassert(buf && size >= ROLLOUT_LIST_META_MAX);

        return fsnprintf(buf, size, "generation %llu\nmade %llu\nmax-age %llu\n", (unsigned long long) m->generation,
                         (unsigned long long) m->made, (unsigned long long) m->max_age);
}

int rollout_list_cache_parse(const uint8_t *data, size_t size, RolloutListMeta *ret_meta, const uint8_t **ret_entries,
                             size_t *ret_entries_size) {
        size_t text_len;

        fassert(data || size == 0);
        fassert(ret_meta);
        fassert(ret_entries);
        fassert(ret_entries_size);

        text_len = fstrnlen((const char *) data ?: "", size);
        if (text_len == size || text_len > ROLLOUT_LIST_META_MAX)
                return -EBADMSG;        /* no NUL after the record, or a record no publisher writes */
        if (rollout_list_meta_parse((const char *) data, text_len, ret_meta) < 0)
                return -EBADMSG;
        *ret_entries = data + text_len + 1;
        *ret_entries_size = size - text_len - 1;
        return 0;
}

int rollout_list_cache_make(const RolloutListMeta *m, const uint8_t *entries, size_t entries_size, size_t max,
                            uint8_t **ret, size_t *ret_size) {
        char text[ROLLOUT_LIST_META_MAX];
        size_t n, total;
        uint8_t *buf;

        fassert(m);
        fassert(entries || entries_size == 0);
        fassert(ret);
        fassert(ret_size);

        n = rollout_list_meta_format(m, text, sizeof text);
        total = n + 1 + entries_size;
        if (entries_size > max || total > max)
                return -E2BIG;
        buf = fmalloc(total);
        if (!buf)
                return -ENOMEM;
        fmemcpy(buf, text, n + 1);
        if (entries_size > 0)
                fmemcpy(buf + n + 1, entries, entries_size);
        *ret = buf;
        *ret_size = total;
        return 0;
}

bool rollout_list_newer_or_same(uint64_t accepted_generation, const RolloutListMeta *fetched) {
        fassert(fetched);

        return fetched->generation >= accepted_generation;
}

static int parse_source(const ConfLine *l, unsigned *seen, RolloutListSource *ret) {
        if (*seen & SEEN_SOURCE)
                return -EINVAL;
        *seen |= SEEN_SOURCE;
        for (RolloutListSource s = 0; s < _ROLLOUT_LIST_SOURCE_MAX; s++)
                if (l->value_len == fstrlen(source_names[s]) && fmemcmp(l->value, source_names[s], l->value_len) == 0) {
                        *ret = s;
                        return 0;
                }
        return -EINVAL;
}

int rollout_list_info_parse(const char *text, size_t size, RolloutListInfo *ret) {
        RolloutListInfo i = {};
        unsigned seen = 0;
        size_t pos = 0;
        ConfLine l;
        bool handled;
        int r;

        fassert(text || size == 0);
        fassert(ret);

        size = fstrnlen(text ?: "", size);
        while (conf_line_next(text, size, &pos, " \t", &l)) {
                r = parse_meta_line(&l, &i.meta, &seen, &handled);
                if (r >= 0 && !handled && conf_line_key_is(&l, "source"))
                        r = parse_source(&l, &seen, &i.source);
                else if (r >= 0 && !handled && conf_line_key_is(&l, "refused"))
                        r = parse_number(&l, ROLLOUT_GENERATION_MAX, SEEN_REFUSED, &seen, &i.refused);
                if (r < 0)
                        return r;
        }
        r = meta_check(&i.meta, seen);
        if (r < 0)
                return r;
        if (!(seen & SEEN_SOURCE))
                return -EBADMSG;
        *ret = i;
        return 0;
}

size_t rollout_list_info_format(const RolloutListInfo *i, char *buf, size_t size) {
        size_t n;

        fassert(i);
        fassert(buf && size >= ROLLOUT_LIST_INFO_MAX);

        n = rollout_list_meta_format(&i->meta, buf, size);
        n += fsnprintf(buf + n, size - n, "source %s\n", rollout_list_source_to_string(i->source) ?: "kept");
        if (i->refused > 0)
                n += fsnprintf(buf + n, size - n, "refused %llu\n", (unsigned long long) i->refused);
        return n;
}

RolloutListAge rollout_list_age(const RolloutListMeta *m, uint64_t now, uint64_t *ret_age) {
        fassert(m);
        fassert(ret_age);

        if (m->made > now) {
                *ret_age = 0;
                return ROLLOUT_LIST_FROM_FUTURE;
        }
        *ret_age = now - m->made;
        return m->max_age > 0 && *ret_age > m->max_age ? ROLLOUT_LIST_EXPIRED : ROLLOUT_LIST_FRESH;
}
