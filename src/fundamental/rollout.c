/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Rollouts of network images: the state of each version and the choice among them.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "printf-fundamental.h"
#include "rollout.h"
#include "string-fundamental.h"

static const char *const state_names[] = {
        [ROLLOUT_TRIAL] = "trial",
        [ROLLOUT_GOOD] = "good",
};

const char *rollout_state_to_string(RolloutState s) {
        return s <= ROLLOUT_GOOD ? state_names[s] : NULL;
}

bool rollout_id_valid(const char *id) {
        size_t n;

        if (!id)
                return false;
        n = fstrlen(id);
        if (n == 0 || n > ROLLOUT_ID_MAX)
                return false;
        for (size_t i = 0; i < n; i++)
                if (id[i] <= ' ' || id[i] >= 0x7f)
                        return false;
        return true;
}

/* The next blank-separated word of [*p, end): its start and length; 0 at the end. */
static size_t next_word(const char **p, const char *end, const char **ret) {
        const char *s = *p, *e;

        while (s < end && *s == ' ')
                s++;
        e = s;
        while (e < end && *e != ' ')
                e++;
        *ret = s;
        *p = e;
        return (size_t) (e - s);
}

static bool parse_count(const char *s, size_t n, unsigned *ret) {
        uint64_t v;

        if (fparse_uint64(s, n, ROLLOUT_TRIES_MAX, &v) < 0)
                return false;
        *ret = (unsigned) v;
        return true;
}

static bool parse_line(const char *line, size_t len, RolloutRecord *ret) {
        const char *end = line + len, *p = line, *w[5];
        size_t n[5];

        for (size_t i = 0; i < 5; i++)
                n[i] = next_word(&p, end, &w[i]);
        if (n[0] == 0 || n[0] > ROLLOUT_ID_MAX || n[4] != 0)
                return false;
        fmemcpy(ret->id, w[0], n[0]);
        ret->id[n[0]] = 0;
        if (!rollout_id_valid(ret->id))
                return false;
        if (n[1] == 5 && fmemcmp(w[1], "trial", 5) == 0)
                ret->state = ROLLOUT_TRIAL;
        else if (n[1] == 4 && fmemcmp(w[1], "good", 4) == 0)
                ret->state = ROLLOUT_GOOD;
        else
                return false;
        return parse_count(w[2], n[2], &ret->tries_left) && parse_count(w[3], n[3], &ret->tries_done);
}

void rollout_store_parse(const char *text, size_t size, RolloutStore *ret) {
        fassert(text || size == 0);
        fassert(ret);

        ret->n = 0;
        for (size_t i = 0; i < size;) {
                size_t start = i;
                RolloutRecord r;

                while (i < size && text[i] != '\n')
                        i++;
                if (ret->n < ROLLOUT_ENTRIES_MAX && parse_line(text + start, i - start, &r) &&
                    !rollout_store_find(ret, r.id))
                        ret->records[ret->n++] = r;
                i++;
        }
}

size_t rollout_store_format(const RolloutStore *s, char *buf, size_t size) {
        size_t off = 0;

        fassert(s);
        fassert(buf && size > ROLLOUT_TEXT_MAX);

        buf[0] = 0;
        for (size_t i = 0; i < s->n; i++)
                off += (size_t) fsnprintf(buf + off, size - off, "%s %s %u %u\n", s->records[i].id,
                                          rollout_state_to_string(s->records[i].state), s->records[i].tries_left,
                                          s->records[i].tries_done);
        return off;
}

RolloutRecord *rollout_store_find(RolloutStore *s, const char *id) {
        fassert(s);
        fassert(id);

        for (size_t i = 0; i < s->n; i++)
                if (fstreq(s->records[i].id, id))
                        return &s->records[i];
        return NULL;
}

void rollout_store_prune(RolloutStore *s, const char *const *ids, size_t n) {
        size_t kept = 0;

        fassert(s);
        fassert(ids || n == 0);

        for (size_t i = 0; i < s->n; i++) {
                bool offered = false;

                for (size_t k = 0; k < n && !offered; k++)
                        offered = fstreq(s->records[i].id, ids[k]);
                if (offered)
                        s->records[kept++] = s->records[i];
        }
        s->n = kept;
}

/* Good, or on trial with a try left (a new entry has them all). */
static bool bootable(const RolloutStore *s, const char *id, bool *ret_trial) {
        const RolloutRecord *r = rollout_store_find((RolloutStore *) s, id);

        *ret_trial = !r || r->state == ROLLOUT_TRIAL;
        return !r || r->state == ROLLOUT_GOOD || r->tries_left > 0;
}

void rollout_choose(const char *const *ids, size_t n, const RolloutStore *s, RolloutChoice *ret) {
        fassert(ids || n == 0);
        fassert(s);
        fassert(ret);

        *ret = (RolloutChoice) { .index = -1, .reason = ROLLOUT_REASON_NONE, .newest_exhausted = -1 };
        for (size_t i = 0; i < n; i++) {
                bool trial;

                if (!bootable(s, ids[i], &trial)) {
                        if (ret->newest_exhausted < 0)
                                ret->newest_exhausted = (int) i;
                        continue;
                }
                ret->index = (int) i;
                ret->trial = trial;
                ret->reason = ret->newest_exhausted < 0 ? ROLLOUT_REASON_NEWEST : ROLLOUT_REASON_FALLBACK;
                return;
        }
}

int rollout_count_start(RolloutStore *s, const char *id, unsigned tries) {
        RolloutRecord *r;

        fassert(s);

        if (!rollout_id_valid(id))
                return -EINVAL;
        r = rollout_store_find(s, id);
        if (!r) {
                if (s->n >= ROLLOUT_ENTRIES_MAX)
                        return -ENOSPC;
                r = &s->records[s->n++];
                fmemset(r, 0, sizeof *r);
                fmemcpy(r->id, id, fstrlen(id) + 1);
                r->state = ROLLOUT_TRIAL;
                r->tries_left = tries > ROLLOUT_TRIES_MAX ? ROLLOUT_TRIES_MAX : tries;
        }
        if (r->state == ROLLOUT_GOOD)
                return 0;
        if (r->tries_left == 0)
                return -ERANGE;
        r->tries_left--;
        if (r->tries_done < ROLLOUT_TRIES_MAX)
                r->tries_done++;
        return 0;
}

int rollout_bless(RolloutStore *s, const char *id) {
        RolloutRecord *r;

        fassert(s);
        fassert(id);

        r = rollout_store_find(s, id);
        if (!r)
                return -ENOENT;
        r->state = ROLLOUT_GOOD;
        return 0;
}

int rollout_reset(RolloutStore *s, const char *id) {
        RolloutRecord *r;

        fassert(s);
        fassert(id);

        r = rollout_store_find(s, id);
        if (!r)
                return -ENOENT;
        *r = s->records[--s->n];
        return 0;
}

/* [p, end) up to the next newline: its length; *p moves past the newline. */
static size_t next_line(const char **p, const char *end, const char **ret) {
        const char *s = *p, *e = s;

        while (e < end && *e != '\n')
                e++;
        *ret = s;
        *p = e < end ? e + 1 : e;
        return (size_t) (e - s);
}

int rollout_running_parse(const char *text, size_t size, RolloutRunning *ret) {
        const char *p = text, *end = text + size, *id, *state, *why;
        size_t n_id, n_state, n_why;

        fassert(text || size == 0);
        fassert(ret);

        size_t newlines = 0;

        for (size_t i = 0; i < size; i++)
                newlines += text[i] == '\n';
        if (newlines != 2)      /* three lines, the last (the reason) without a newline and perhaps empty */
                return -EINVAL;
        n_id = next_line(&p, end, &id);
        n_state = next_line(&p, end, &state);
        n_why = next_line(&p, end, &why);
        if (n_id == 0 || n_id > ROLLOUT_ID_MAX || n_why >= sizeof ret->why)
                return -EINVAL;
        fmemcpy(ret->id, id, n_id);
        ret->id[n_id] = 0;
        /* a NUL inside would cut the ID short: what is checked must be all that was read */
        if (fstrlen(ret->id) != n_id || !rollout_id_valid(ret->id))
                return -EINVAL;
        if (n_state == 5 && fmemcmp(state, "trial", 5) == 0)
                ret->state = ROLLOUT_TRIAL;
        else if (n_state == 4 && fmemcmp(state, "good", 4) == 0)
                ret->state = ROLLOUT_GOOD;
        else
                return -EINVAL;
        for (size_t i = 0; i < n_why; i++)
                if (why[i] < ' ' || why[i] >= 0x7f)
                        return -EINVAL;
        fmemcpy(ret->why, why, n_why);
        ret->why[n_why] = 0;
        return 0;
}
