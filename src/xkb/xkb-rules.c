/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The XKB rules list (evdev.lst from xkb-data).
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "macro.h"
#include "string-util.h"
#include "xkb-rules.h"

enum { SECTION_MODEL, SECTION_LAYOUT, SECTION_VARIANT, SECTION_OPTION, _SECTION_MAX };

typedef struct Entry {
        char *name;
        char *layout;   /* variants only */
} Entry;

struct XkbRules {
        Entry *entries[_SECTION_MAX];
        size_t n[_SECTION_MAX];
};

#define XKB_RULES_SIZE_MAX (4 * 1024 * 1024)

XkbRules *xkb_rules_free(XkbRules *r) {
        if (!r)
                return NULL;
        for (int s = 0; s < _SECTION_MAX; s++) {
                for (size_t i = 0; i < r->n[s]; i++) {
                        free(r->entries[s][i].name);
                        free(r->entries[s][i].layout);
                }
                free(r->entries[s]);
        }
        free(r);
        return NULL;
}

static int section_from_header(const char *line) {
        static const char *const names[_SECTION_MAX] = { "model", "layout", "variant", "option" };
        const char *h = startswith(line, "! ");

        for (int s = 0; h && s < _SECTION_MAX; s++)
                if (streq(h, names[s]))
                        return s;
        return -1;
}

static int add_entry(XkbRules *r, int section, char *line) {
        char *name = line + strspn(line, " \t"), *desc;
        size_t n = strcspn(name, " \t");
        Entry *e;

        if (n == 0)
                return 0;
        desc = name + n;
        desc += strspn(desc, " \t");
        name[n] = 0;

        e = realloc(r->entries[section], sizeof(Entry) * (r->n[section] + 1));
        if (!e)
                return -ENOMEM;
        r->entries[section] = e;
        e = &e[r->n[section]];
        *e = (Entry) { .name = strdup(name) };
        if (section == SECTION_VARIANT)
                e->layout = strndup(desc, strcspn(desc, ":"));
        if (!e->name || (section == SECTION_VARIANT && !e->layout)) {
                free(e->name);
                free(e->layout);
                return -ENOMEM;
        }
        r->n[section]++;
        return 0;
}

int xkb_rules_load(const char *path, XkbRules **ret) {
        _cleanup_free_ char *text = NULL;
        XkbRules *r;
        char *save = NULL;
        int section = -1, k;

        assert(path);
        assert(ret);

        k = read_full_file(path, XKB_RULES_SIZE_MAX, &text, NULL);
        if (k < 0)
                return k;

        r = calloc(1, sizeof *r);
        if (!r)
                return -ENOMEM;

        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                if (line[0] == '!') {
                        section = section_from_header(line);
                        continue;
                }
                if (section < 0)
                        continue;
                k = add_entry(r, section, line);
                if (k < 0) {
                        xkb_rules_free(r);
                        return k;
                }
        }

        *ret = r;
        return 0;
}

static const Entry *find(const XkbRules *r, int section, const char *name, const char *layout) {
        for (size_t i = 0; i < r->n[section]; i++)
                if (streq(r->entries[section][i].name, name) &&
                    (!layout || streq_ptr(r->entries[section][i].layout, layout)))
                        return &r->entries[section][i];
        return NULL;
}

bool xkb_rules_has_model(const XkbRules *r, const char *model) {
        assert(r);
        assert(model);

        return find(r, SECTION_MODEL, model, NULL);
}

bool xkb_rules_has_layout(const XkbRules *r, const char *layout) {
        assert(r);
        assert(layout);

        return find(r, SECTION_LAYOUT, layout, NULL);
}

bool xkb_rules_has_variant(const XkbRules *r, const char *layout, const char *variant) {
        assert(r);
        assert(variant);

        return find(r, SECTION_VARIANT, variant, layout);
}

bool xkb_rules_has_option(const XkbRules *r, const char *option) {
        assert(r);
        assert(option);

        return find(r, SECTION_OPTION, option, NULL);
}
