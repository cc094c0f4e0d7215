/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Rollouts of network images: the state of each version and the choice among them.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "printf-fundamental.h"
#include "rollout.h"
#include "sha256.h"
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

static bool parse_state(const char *w, size_t n, RolloutState *ret) {
        if (n == 5 && fmemcmp(w, "trial", 5) == 0)
                *ret = ROLLOUT_TRIAL;
        else if (n == 4 && fmemcmp(w, "good", 4) == 0)
                *ret = ROLLOUT_GOOD;
        else
                return false;
        return true;
}

/* [s, s+n) as an ID into buf: all of it (a NUL inside would cut what is checked short), and valid. */
static bool copy_id(const char *s, size_t n, char buf[static ROLLOUT_ID_MAX + 1]) {
        if (n == 0 || n > ROLLOUT_ID_MAX)
                return false;
        fmemcpy(buf, s, n);
        buf[n] = 0;
        return fstrlen(buf) == n && rollout_id_valid(buf);
}

static bool parse_line(const char *line, size_t len, RolloutRecord *ret) {
        const char *end = line + len, *p = line, *w[6];
        size_t n[6];

        for (size_t i = 0; i < 6; i++)
                n[i] = next_word(&p, end, &w[i]);
        if (n[5] != 0 || !copy_id(w[0], n[0], ret->id) || !parse_state(w[1], n[1], &ret->state))
                return false;
        ret->fetch_failures = 0;
        if (n[4] != 0 && !parse_count(w[4], n[4], &ret->fetch_failures))
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
        for (size_t i = 0; i < s->n; i++) {
                const RolloutRecord *r = &s->records[i];

                off += fsnprintf(buf + off, size - off, "%s %s %u %u", r->id, rollout_state_to_string(r->state),
                                          r->tries_left, r->tries_done);
                /* the fifth word only when it says something: the text stays what older readers take */
                if (r->fetch_failures > 0)
                        off += fsnprintf(buf + off, size - off, " %u", r->fetch_failures);
                off += fsnprintf(buf + off, size - off, "\n");
        }
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

/* Good, or on trial with a try left and a UKI that could be fetched lately (a new entry has them all);
 * otherwise why not. */
static bool bootable(const RolloutStore *s, const char *id, bool *ret_trial, RolloutSkip *ret_skip) {
        const RolloutRecord *r = rollout_store_find((RolloutStore *) s, id);

        *ret_trial = !r || r->state == ROLLOUT_TRIAL;
        if (!r || r->state == ROLLOUT_GOOD)
                return true;
        if (r->tries_left == 0) {
                *ret_skip = ROLLOUT_SKIP_TRIES;
                return false;
        }
        if (r->fetch_failures >= ROLLOUT_FETCH_FAILURES_MAX) {
                *ret_skip = ROLLOUT_SKIP_UNFETCHED;
                return false;
        }
        return true;
}

void rollout_choose(const char *const *ids, size_t n, const RolloutStore *s, const bool *tried, RolloutChoice *ret) {
        fassert(ids || n == 0);
        fassert(s);
        fassert(ret);

        *ret = (RolloutChoice) { .index = -1, .reason = ROLLOUT_REASON_NONE, .newest_skipped = -1 };
        for (size_t i = 0; i < n; i++) {
                RolloutSkip skip = ROLLOUT_SKIP_THIS_BOOT;
                bool trial;

                if ((tried && tried[i]) || !bootable(s, ids[i], &trial, &skip)) {
                        if (ret->newest_skipped < 0) {
                                ret->newest_skipped = (int) i;
                                ret->skip = skip;
                        }
                        continue;
                }
                ret->index = (int) i;
                ret->trial = trial;
                ret->reason = ret->newest_skipped < 0 ? ROLLOUT_REASON_NEWEST : ROLLOUT_REASON_FALLBACK;
                return;
        }
}

void rollout_choice_why(const RolloutChoice *c, const char *const *ids, char *buf, size_t size) {
        static const char *const skip_words[] = {
                [ROLLOUT_SKIP_TRIES] = "used up its tries",
                [ROLLOUT_SKIP_UNFETCHED] = "could not be fetched " STRINGIFY(ROLLOUT_FETCH_FAILURES_MAX) " times",
                [ROLLOUT_SKIP_THIS_BOOT] = "could not be fetched",
        };

        fassert(c);
        fassert(buf && size > 0);

        if (c->reason == ROLLOUT_REASON_NEWEST)
                fsnprintf(buf, size, "newest version");
        else if (c->reason == ROLLOUT_REASON_FALLBACK)
                fsnprintf(buf, size, "fallback: %s %s", ids[c->newest_skipped], skip_words[c->skip]);
        else
                fsnprintf(buf, size, "no version left");
}

/* The record of id, added on trial with all its tries when it is new. */
static RolloutRecord *record_get(RolloutStore *s, const char *id, unsigned tries) {
        RolloutRecord *r = rollout_store_find(s, id);

        if (r || s->n >= ROLLOUT_ENTRIES_MAX)
                return r;
        r = &s->records[s->n++];
        fmemset(r, 0, sizeof *r);
        fmemcpy(r->id, id, fstrlen(id) + 1);
        r->state = ROLLOUT_TRIAL;
        r->tries_left = tries > ROLLOUT_TRIES_MAX ? ROLLOUT_TRIES_MAX : tries;
        return r;
}

int rollout_count_start(RolloutStore *s, const char *id, unsigned tries) {
        RolloutRecord *r;

        fassert(s);

        if (!rollout_id_valid(id))
                return -EINVAL;
        r = record_get(s, id, tries);
        if (!r)
                return -ENOSPC;
        r->fetch_failures = 0;
        if (r->state == ROLLOUT_GOOD)
                return 0;
        if (r->tries_left == 0)
                return -ERANGE;
        r->tries_left--;
        if (r->tries_done < ROLLOUT_TRIES_MAX)
                r->tries_done++;
        return 0;
}

int rollout_fetch_failed(RolloutStore *s, const char *id, unsigned tries) {
        RolloutRecord *r;

        fassert(s);

        if (!rollout_id_valid(id))
                return -EINVAL;
        r = record_get(s, id, tries);
        if (!r)
                return -ENOSPC;
        if (r->fetch_failures < ROLLOUT_TRIES_MAX)
                r->fetch_failures++;
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
        const char *p = text, *end = text + size, *id, *state, *why, *pin = NULL;
        size_t n_id, n_state, n_why, n_pin = 0, newlines = 0;

        fassert(text || size == 0);
        fassert(ret);

        for (size_t i = 0; i < size; i++)
                newlines += text[i] == '\n';
        /* three lines, the reason (perhaps empty) without a newline; or four, the pin last */
        if (newlines != 2 && newlines != 3)
                return -EINVAL;
        n_id = next_line(&p, end, &id);
        n_state = next_line(&p, end, &state);
        n_why = next_line(&p, end, &why);
        if (newlines == 3) {
                n_pin = next_line(&p, end, &pin);
                if (!sha256_hex_valid(pin, n_pin))
                        return -EINVAL;
        }
        if (!copy_id(id, n_id, ret->id) || !parse_state(state, n_state, &ret->state) || n_why >= sizeof ret->why)
                return -EINVAL;
        for (size_t i = 0; i < n_why; i++)
                if (why[i] < ' ' || why[i] >= 0x7f)
                        return -EINVAL;
        fmemcpy(ret->why, why, n_why);
        ret->why[n_why] = 0;
        fmemcpy(ret->pin, n_pin ? pin : "", n_pin);
        ret->pin[n_pin] = 0;
        return 0;
}

size_t rollout_running_format(const RolloutRunning *r, char *buf, size_t size) {
        fassert(r);
        fassert(buf && size >= ROLLOUT_RUNNING_MAX);

        return fsnprintf(buf, size, "%s\n%s\n%s%s%s", r->id, rollout_state_to_string(r->state), r->why,
                         r->pin[0] ? "\n" : "", r->pin);
}
