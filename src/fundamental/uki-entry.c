/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Type #2 entries from a UKI's .osrel, .cmdline and .profile sections.
 */
#include "assert-fundamental.h"
#include "conf-line.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "string-fundamental.h"
#include "uki-entry.h"

/* The first of keys that the text sets, as a new string. */
static char *first_value(const uint8_t *text, size_t n, const char *const *keys, size_t n_keys) {
        for (size_t i = 0; i < n_keys; i++) {
                char *v = conf_osrel_value((const char *) text, n, keys[i]);
                if (v && *v)
                        return v;
                ffree(v);
        }
        return NULL;
}

/* The sections an entry is made from, found for all profiles in one walk. */
enum { SECTION_OSREL, SECTION_CMDLINE, SECTION_PROFILE, _SECTION_MAX };
static const char *const section_names[_SECTION_MAX] = { ".osrel", ".cmdline", ".profile" };

typedef struct Uki {
        const void *image;
        size_t size;
        bool loaded;
        PeProfileSections sections;
} Uki;

static const uint8_t *section(const Uki *u, unsigned profile, size_t which, size_t *ret_size) {
        const uint8_t *d;

        if (pe_profile_sections_get(&u->sections, u->image, u->size, profile, which, u->loaded, &d, ret_size) < 0)
                return NULL;
        *ret_size = fstrnlen((const char *) d, *ret_size); /* sections are NUL-padded */
        return d;
}

/* "A" + " (" + "B" + ")" or "A" + "@" + "B": one allocation. */
static char *join3(const char *a, const char *mid, const char *b, const char *end) {
        size_t la = fstrlen(a), lm = fstrlen(mid), lb = fstrlen(b), le = fstrlen(end);
        char *s = fmalloc(la + lm + lb + le + 1);

        if (!s)
                return NULL;
        fmemcpy(s, a, la);
        fmemcpy(s + la, mid, lm);
        fmemcpy(s + la + lm, b, lb);
        fmemcpy(s + la + lm + lb, end, le + 1);
        return s;
}

static const char *const name_keys[] = { "PRETTY_NAME", "IMAGE_ID", "NAME", "ID" };
static const char *const version_keys[] = { "IMAGE_VERSION", "VERSION", "VERSION_ID", "BUILD_ID" };
static const char *const sort_keys[] = { "IMAGE_ID", "ID" };

/* Give a profile's entry its "@..." ID and "(...)" title. */
static int name_profile(BlsEntry *e, unsigned profile, const uint8_t *prof, size_t pn) {
        static const char *const id_key[] = { "ID" }, *const title_key[] = { "TITLE" };
        _cleanup_ffree_ char *pid = prof ? first_value(prof, pn, id_key, 1) : NULL;
        _cleanup_ffree_ char *ptitle = prof ? first_value(prof, pn, title_key, 1) : NULL;
        _cleanup_ffree_ char *id = NULL, *title = NULL;
        char num[21], label[32];

        fformat_uint(profile, num);
        fmemcpy(label, "Profile #", 9);
        fformat_uint(profile + 1, label + 9);
        id = join3(e->id, "@", pid ?: num, "");
        title = join3(e->title, " (", ptitle ?: pid ?: label, ")");
        if (!id || !title)
                return -ENOMEM;
        ffree(e->id);
        ffree(e->title);
        e->id = TAKE_PTR(id);
        e->title = TAKE_PTR(title);
        e->profile = fstrdup(num);
        return e->profile ? 0 : -ENOMEM;
}

static int make_one(const char *filename, const char *path, const Uki *u, unsigned profile, bool multi,
                    BlsEntry **ret) {
        _cleanup_(bls_entry_freep) BlsEntry *e = NULL;
        const uint8_t *osrel, *cmdline, *prof = NULL;
        size_t on, cn, pn = 0;
        int r;

        osrel = section(u, profile, SECTION_OSREL, &on);
        if (!osrel)
                return 0; /* profiles without .osrel are not shown */
        e = fmalloc(sizeof *e);
        if (!e)
                return -ENOMEM;
        fmemset(e, 0, sizeof *e);
        e->kind = BLS_KIND_UKI;
        e->options_implied = true;
        r = bls_id_from_filename(filename, &e->id, &e->tries_left, &e->tries_done);
        if (r < 0)
                return r;
        e->title = first_value(osrel, on, name_keys, ELEMENTSOF(name_keys));
        if (!e->title)
                return 0; /* nothing to call it: not shown */
        e->version = first_value(osrel, on, version_keys, ELEMENTSOF(version_keys));
        e->sort_key = first_value(osrel, on, sort_keys, ELEMENTSOF(sort_keys));
        e->path = fstrdup(path);
        if (!e->path)
                return -ENOMEM;
        cmdline = section(u, profile, SECTION_CMDLINE, &cn);
        if (cmdline && !(e->options = fstrndup((const char *) cmdline, cn)))
                return -ENOMEM;
        if (multi) {
                prof = section(u, profile, SECTION_PROFILE, &pn);
                r = name_profile(e, profile, prof, pn);
                if (r < 0)
                        return r;
        }
        *ret = TAKE_PTR(e);
        return 1;
}

int uki_entries_make(const char *filename, const char *path, const void *image, size_t size, bool loaded,
                     BlsEntry **ret, unsigned max) {
        Uki u = { .image = image, .size = size, .loaded = loaded };
        unsigned n = 0;
        bool multi;
        int r;

        fassert(filename);
        fassert(path);
        fassert(ret || max == 0);
        fassert(image || size == 0);

        r = pe_profile_sections_collect(image, size, section_names, _SECTION_MAX, &u.sections);
        if (r < 0)
                return r == -ENOMEM ? r : -EBADMSG;
        /* One profile counts as "multi" too when it is marked by a .profile section. */
        multi = u.sections.n_profiles > 1 || u.sections.found[u.sections.n_names + SECTION_PROFILE];
        for (unsigned p = 0; p < u.sections.n_profiles && n < max; p++) {
                r = make_one(filename, path, &u, p, multi, ret + n);
                if (r < 0) {
                        while (n > 0)
                                bls_entry_free(ret[--n]);
                        break;
                }
                n += (unsigned) r;
        }
        pe_profile_sections_done(&u.sections);
        return r < 0 ? r : (int) n;
}
