/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Default entry and title de-duplication, as systemd-boot does them.
 */
#include "assert-fundamental.h"
#include "bls-menu.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

/* First entry matching pattern (or, for "@saved", the saved ID); -1 when none. */
static int find(BlsEntry *const *entries, unsigned n, const char *pattern, const char *saved) {
        if (!pattern || !*pattern)
                return -1;
        if (fstreq(pattern, "@saved")) {
                if (!saved)
                        return -1;
                pattern = saved;
        }
        for (unsigned i = 0; i < n; i++)
                if (bls_glob_match(pattern, entries[i]->id))
                        return (int) i;
        return -1;
}

unsigned bls_pick_default(BlsEntry *const *entries, unsigned n, const BlsDefaultRequest *req) {
        const char *order[] = { req->oneshot, req->variable, req->conf };

        fassert(entries || n == 0);
        fassert(req);

        for (size_t k = 0; k < ELEMENTSOF(order); k++) {
                int i = find(entries, n, order[k], req->saved);
                if (i >= 0)
                        return (unsigned) i;
        }
        return 0;
}

static bool clashes(char **titles, unsigned n, unsigned i) {
        for (unsigned j = 0; j < n; j++)
                if (j != i && fstreq(titles[i], titles[j]))
                        return true;
        return false;
}

/* Append " (what)" to the titles that clash; what is NULL for entries that cannot be told apart that way. */
static int disambiguate(BlsEntry *const *entries, unsigned n, char **titles, int step) {
        bool clash[n > 0 ? n : 1];

        for (unsigned i = 0; i < n; i++)
                clash[i] = clashes(titles, n, i);
        for (unsigned i = 0; i < n; i++) {
                const char *what = step == 0 ? entries[i]->version : step == 1 ? entries[i]->machine_id : entries[i]->id;
                size_t tl, wl;
                char *s;

                if (!clash[i] || !what)
                        continue;
                tl = fstrlen(titles[i]);
                wl = fstrlen(what);
                if (step == 1 && wl > 8)
                        wl = 8;
                s = fmalloc(tl + 2 + wl + 2);
                if (!s)
                        return -ENOMEM;
                fmemcpy(s, titles[i], tl);
                fmemcpy(s + tl, " (", 2);
                fmemcpy(s + tl + 2, what, wl);
                fmemcpy(s + tl + 2 + wl, ")", 2);
                ffree(titles[i]);
                titles[i] = s;
        }
        return 0;
}

static void titles_free(char **titles, unsigned n) {
        for (unsigned i = 0; i < n; i++)
                ffree(titles[i]);
}

static int titles_fill(BlsEntry *const *entries, unsigned n, char **ret) {
        for (unsigned i = 0; i < n; i++)
                if (!(ret[i] = fstrdup(entries[i]->title ?: entries[i]->id)))
                        return -ENOMEM;
        for (int step = 0; step < 3; step++)
                if (disambiguate(entries, n, ret, step) < 0)
                        return -ENOMEM;
        return 0;
}

int bls_titles_make(BlsEntry *const *entries, unsigned n, char **ret) {
        int r;

        fassert(entries || n == 0);
        fassert(ret || n == 0);

        for (unsigned i = 0; i < n; i++)
                ret[i] = NULL;
        r = titles_fill(entries, n, ret);
        if (r < 0)
                titles_free(ret, n); /* all or nothing */
        return r;
}
