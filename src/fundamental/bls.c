/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Boot Loader Specification Type #1 entries.
 */
#include "bls.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "version.h"

void bls_entry_free(BlsEntry *e) {
        if (!e)
                return;
        ffree(e->id);
        ffree(e->title);
        ffree(e->version);
        ffree(e->machine_id);
        ffree(e->sort_key);
        ffree(e->architecture);
        ffree(e->devicetree);
        ffree(e->options);
        ffree(e->path);
        ffree(e->profile);
        for (unsigned i = 0; i < e->n_initrds; i++)
                ffree(e->initrds[i]);
        ffree(e);
}

static bool parse_uint(const char *s, size_t n, int *ret) {
        int v = 0;

        if (n == 0 || n > 6)
                return false;
        for (size_t i = 0; i < n; i++) {
                if (!fascii_isdigit(s[i]))
                        return false;
                v = v * 10 + (s[i] - '0');
        }
        *ret = v;
        return true;
}

int bls_id_from_filename(const char *filename, char **ret_id, int *ret_left, int *ret_done) {
        size_t n = fstrlen(filename), plus;
        const char *e = fendswith(filename, ".conf");
        int left = -1, done = -1;

        if (e)
                n = (size_t) (e - filename);

        /* "+LEFT" or "+LEFT-DONE" at the end of the name */
        for (plus = n; plus > 0 && filename[plus - 1] != '+'; plus--)
                ;
        if (plus > 1) {
                const char *c = filename + plus;
                size_t rest = n - plus, dash = 0;

                while (dash < rest && c[dash] != '-')
                        dash++;
                if (parse_uint(c, dash, &left) && (dash == rest || parse_uint(c + dash + 1, rest - dash - 1, &done)))
                        n = plus - 1;
                else
                        left = done = -1;
                if (left >= 0 && done < 0)
                        done = 0;
        }
        if (n == 0)
                return -EINVAL;

        *ret_id = fstrndup(filename, n);
        if (!*ret_id)
                return -ENOMEM;
        if (ret_left)
                *ret_left = left;
        if (ret_done)
                *ret_done = done;
        return 0;
}

static int set_field(char **field, const char *v, size_t n) {
        char *s = fstrndup(v, n);

        if (!s)
                return -ENOMEM;
        ffree(*field);
        *field = s;
        return 0;
}

static int append_options(BlsEntry *e, const char *v, size_t n) {
        size_t old = e->options ? fstrlen(e->options) : 0;
        char *s = fmalloc(old + 1 + n + 1);

        if (!s)
                return -ENOMEM;
        if (old) {
                fmemcpy(s, e->options, old);
                s[old++] = ' ';
        }
        fmemcpy(s + old, v, n);
        s[old + n] = 0;
        ffree(e->options);
        e->options = s;
        return 0;
}

static const struct {
        const char *key;
        BlsKind kind;
} loader_keys[] = {
        { "linux", BLS_KIND_LINUX },
        { "efi", BLS_KIND_EFI },
        { "uki", BLS_KIND_UKI },
        { "uki-url", BLS_KIND_UKI_URL },
};

static int parse_line(BlsEntry *e, const char *key, size_t kn, const char *v, size_t vn, bool *conflict) {
#define KEY_IS(k) (kn == sizeof(k) - 1 && fmemcmp(key, k, kn) == 0)
        for (size_t i = 0; i < ELEMENTSOF(loader_keys); i++)
                if (kn == fstrlen(loader_keys[i].key) && fmemcmp(key, loader_keys[i].key, kn) == 0) {
                        if (e->kind != BLS_KIND_NONE)
                                *conflict = true;
                        e->kind = loader_keys[i].kind;
                        return set_field(&e->path, v, vn);
                }
        if (KEY_IS("title"))
                return set_field(&e->title, v, vn);
        if (KEY_IS("version"))
                return set_field(&e->version, v, vn);
        if (KEY_IS("machine-id"))
                return set_field(&e->machine_id, v, vn);
        if (KEY_IS("sort-key"))
                return set_field(&e->sort_key, v, vn);
        if (KEY_IS("architecture"))
                return set_field(&e->architecture, v, vn);
        if (KEY_IS("devicetree"))
                return set_field(&e->devicetree, v, vn);
        if (KEY_IS("profile")) {
                /* a number, or the entry is not what it claims */
                for (size_t i = 0; i < vn; i++)
                        if (!fascii_isdigit(v[i]))
                                return 0;
                return vn > 0 && vn < 6 ? set_field(&e->profile, v, vn) : 0;
        }
        if (KEY_IS("options"))
                return append_options(e, v, vn);
        if (KEY_IS("initrd")) {
                if (e->n_initrds >= BLS_INITRDS_MAX)
                        return 0;
                e->initrds[e->n_initrds] = fstrndup(v, vn);
                return e->initrds[e->n_initrds++] ? 0 : -ENOMEM;
        }
        return 0; /* unknown keys are ignored, as the specification asks */
#undef KEY_IS
}

int bls_entry_parse(const char *filename, const char *text, size_t size, BlsEntry **ret) {
        BlsEntry *e = fmalloc(sizeof *e);
        bool conflict = false;
        size_t i = 0;
        int r;

        if (!e)
                return -ENOMEM;
        fmemset(e, 0, sizeof *e);
        r = bls_id_from_filename(filename, &e->id, &e->tries_left, &e->tries_done);
        if (r < 0)
                goto fail;

        while (i < size) {
                size_t start = i, end, ks, ke, vs;

                while (i < size && text[i] != '\n')
                        i++;
                end = i++;
                while (start < end && fascii_isspace(text[start]))
                        start++;
                while (end > start && fascii_isspace(text[end - 1]))
                        end--;
                if (start == end || text[start] == '#')
                        continue;
                ks = start;
                ke = ks;
                while (ke < end && !fascii_isspace(text[ke]))
                        ke++;
                vs = ke;
                while (vs < end && fascii_isspace(text[vs]))
                        vs++;
                r = parse_line(e, text + ks, ke - ks, text + vs, end - vs, &conflict);
                if (r < 0)
                        goto fail;
        }

        if (e->kind == BLS_KIND_NONE || conflict || !e->path || !*e->path) {
                r = -EBADMSG;
                goto fail;
        }
        *ret = e;
        return 0;
fail:
        bls_entry_free(e);
        return r;
}

int bls_entry_compare(const BlsEntry *a, const BlsEntry *b) {
        int r;

        /* Entries with a sort key come first. */
        r = CMP(!a->sort_key, !b->sort_key);
        if (r != 0)
                return r;
        if (a->sort_key && b->sort_key) {
                r = fstrcmp(a->sort_key, b->sort_key);
                if (r != 0)
                        return r;
                r = fstrcmp(a->machine_id ?: "", b->machine_id ?: "");
                if (r != 0)
                        return r;
                /* Newest version first */
                r = -version_compare(a->version, b->version);
                if (r != 0)
                        return r;
        }
        /* Then by ID, newest first, as systemd-boot sorts kernels. */
        return -version_compare(a->id, b->id);
}

char *bls_entry_load_options(const BlsEntry *e) {
        size_t pl = e->profile ? fstrlen(e->profile) + 2 : 0, ol = e->options ? fstrlen(e->options) : 0;
        char *text;

        if (pl + ol == 0)
                return NULL;
        text = fmalloc(pl + ol + 1);
        if (!text)
                return NULL;
        if (pl) {
                text[0] = '@';
                fmemcpy(text + 1, e->profile, pl - 2);
                text[pl - 1] = ol ? ' ' : 0;
        }
        fmemcpy(text + pl, e->options ?: "", ol);
        text[pl + ol - (ol ? 0 : 1)] = 0;
        return text;
}

bool bls_glob_match(const char *p, const char *s) {
        for (;; p++, s++) {
                if (*p == '*') {
                        while (*p == '*')
                                p++;
                        if (!*p)
                                return true;
                        for (; *s; s++)
                                if (bls_glob_match(p, s))
                                        return true;
                        return false;
                }
                if (!*p)
                        return !*s;
                if (!*s)
                        return false;
                if (*p == '?')
                        continue;
                if (*p == '[') {
                        const char *q = p + 1;
                        bool match = false;
                        for (; *q && *q != ']'; q++) {
                                if (q[1] == '-' && q[2] && q[2] != ']') {
                                        if (fascii_tolower(*s) >= fascii_tolower(q[0]) &&
                                            fascii_tolower(*s) <= fascii_tolower(q[2]))
                                                match = true;
                                        q += 2;
                                } else if (fascii_tolower(*q) == fascii_tolower(*s))
                                        match = true;
                        }
                        if (!*q || !match)
                                return false;
                        p = q;
                        continue;
                }
                if (fascii_tolower(*p) != fascii_tolower(*s))
                        return false;
        }
}
