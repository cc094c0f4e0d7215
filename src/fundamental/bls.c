/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Boot Loader Specification Type #1 entries.
 */
#include "assert-fundamental.h"
#include "bls.h"
#include "conf-line.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "sha256.h"
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
        ffree(e->pin);
        for (unsigned i = 0; i < e->n_initrds; i++)
                ffree(e->initrds[i]);
        ffree(e);
}

/* A decimal number up to INT_MAX. @ret 0, -EINVAL (not a number), -ERANGE (too big) */
static int parse_counter(const char *s, size_t n, int *ret) {
        uint64_t v;
        int r = fparse_uint64(s, n, 0x7fffffff, &v);

        if (r == 0)
                *ret = (int) v;
        return r;
}

/* ".conf" or ".efi" at the end, any case: where it starts, or NULL. */
static const char *entry_suffix(const char *filename) {
        return fendswith_no_case(filename, ".conf") ?: fendswith_no_case(filename, ".efi");
}

int bls_counter_parse(const char *filename, BlsCounter *ret) {
        size_t n = fstrlen(filename), plus, dash;
        const char *suffix = entry_suffix(filename);
        int left = 0, done = 0, r;

        fassert(filename);
        fassert(ret);

        *ret = (BlsCounter) { .tries_left = -1, .tries_done = -1 };
        if (!suffix)
                return 0;
        n = (size_t) (suffix - filename);
        /* the last '+' before the suffix */
        for (plus = n; plus > 0 && filename[plus - 1] != '+'; plus--)
                ;
        if (plus <= 1)
                return 0;
        for (dash = plus; dash < n && filename[dash] != '-'; dash++)
                ;
        r = parse_counter(filename + plus, dash - plus, &left);
        if (r == 0 && dash < n)
                r = parse_counter(filename + dash + 1, n - dash - 1, &done);
        if (r == -ERANGE)
                return r;
        if (r < 0)
                return 0;
        *ret = (BlsCounter) { .prefix_len = plus - 1, .suffix = suffix, .tries_left = left, .tries_done = done };
        return 1;
}

int bls_id_from_filename(const char *filename, char **ret_id, int *ret_left, int *ret_done) {
        BlsCounter c;
        size_t n = fstrlen(filename), keep;
        char *id;

        fassert(filename);
        fassert(ret_id);

        if (n == 0)
                return -EINVAL;
        if (bls_counter_parse(filename, &c) <= 0)
                c = (BlsCounter) { .prefix_len = n, .suffix = filename + n, .tries_left = -1, .tries_done = -1 };
        if (c.prefix_len == 0)
                return -EINVAL;
        /* The ID is the lowercased name without the counter: "Foo+3-1.conf" is "foo.conf". */
        keep = fstrlen(c.suffix);
        id = fmalloc(c.prefix_len + keep + 1);
        if (!id)
                return -ENOMEM;
        fmemcpy(id, filename, c.prefix_len);
        fmemcpy(id + c.prefix_len, c.suffix, keep + 1);
        for (char *p = id; *p; p++)
                *p = fascii_tolower(*p);
        *ret_id = id;
        if (ret_left)
                *ret_left = c.tries_left;
        if (ret_done)
                *ret_done = c.tries_done;
        return 0;
}

int bls_counter_next_filename(const char *filename, char **ret) {
        BlsCounter c;
        size_t sl;
        char *s;
        int r;

        fassert(filename);
        fassert(ret);

        r = bls_counter_parse(filename, &c);
        if (r <= 0)
                return r < 0 ? r : -ENOENT;
        if (c.tries_left == 0)
                return -ENOENT; /* nothing left to count */
        sl = fstrlen(c.suffix);
        s = fmalloc(c.prefix_len + 1 + 11 + 1 + 11 + sl + 1);
        if (!s)
                return -ENOMEM;
        fmemcpy(s, filename, c.prefix_len);
        r = (int) c.prefix_len;
        s[r++] = '+';
        r += (int) fformat_uint((unsigned) c.tries_left - 1, s + r);
        s[r++] = '-';
        /* done saturates rather than wrapping at INT_MAX */
        r += (int) fformat_uint((unsigned) c.tries_done + (c.tries_done < 0x7fffffff), s + r);
        fmemcpy(s + r, c.suffix, sl + 1);
        *ret = s;
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

static int parse_line(BlsEntry *e, const char *key, size_t kn, const char *v, size_t vn, bool *conflict,
                      bool *bad_pin) {
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
        if (KEY_IS("urlboot-sha256")) {
                if (!sha256_hex_valid(v, vn) || e->pin)
                        *bad_pin = true;        /* malformed, or two pins: which one would hold? */
                return set_field(&e->pin, v, vn);
        }
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
        _cleanup_(bls_entry_freep) BlsEntry *e = fmalloc(sizeof *e);
        bool conflict = false, bad_pin = false;
        size_t pos = 0;
        ConfLine l;
        int r;

        fassert(filename);
        fassert(text || size == 0);
        fassert(ret);

        if (!e)
                return -ENOMEM;
        fmemset(e, 0, sizeof *e);
        r = bls_id_from_filename(filename, &e->id, &e->tries_left, &e->tries_done);
        if (r < 0)
                return r;

        while (conf_line_next(text, size, &pos, " \t", &l)) {
                r = parse_line(e, l.key, l.key_len, l.value, l.value_len, &conflict, &bad_pin);
                if (r < 0)
                        return r;
        }

        if (e->kind == BLS_KIND_NONE || conflict || !e->path || !*e->path)
                return -EBADMSG;
        if (bad_pin)
                return -EINVAL;
        *ret = TAKE_PTR(e);
        return 0;
}

static unsigned profile_number(const BlsEntry *e) {
        unsigned n = 0;

        for (const char *p = e->profile; p && *p; p++)
                n = n * 10 + (unsigned) (*p - '0');
        return n;
}

int bls_entry_compare(const BlsEntry *a, const BlsEntry *b) {
        int r;

        fassert(a);
        fassert(b);

        /* Entries out of tries go last. */
        r = CMP(a->tries_left == 0, b->tries_left == 0);
        if (r != 0)
                return r;
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
        r = -version_compare(a->id, b->id);
        if (r != 0)
                return r;
        r = CMP(profile_number(a), profile_number(b));
        if (r != 0)
                return r;
        if (a->tries_left < 0 || b->tries_left < 0)
                return 0;
        r = -CMP(a->tries_left, b->tries_left);
        return r != 0 ? r : CMP(a->tries_done, b->tries_done);
}

bool bls_entry_for_architecture(const BlsEntry *e, const char *arch) {
        fassert(e);
        fassert(arch);

        return !e->architecture || fstrcaseeq(e->architecture, arch);
}

bool bls_filename_valid(const char *name, const char *suffix) {
        fassert(name);
        fassert(suffix);

        /* not hidden, not "auto-*" (systemd-boot's own entries), something before the suffix */
        if (name[0] == '.' || fstrlen(name) <= fstrlen(suffix) || !fendswith_no_case(name, suffix))
                return false;
        return !(fstrlen(name) >= 5 && fascii_tolower(name[0]) == 'a' && fascii_tolower(name[1]) == 'u' &&
                 fascii_tolower(name[2]) == 't' && fascii_tolower(name[3]) == 'o' && name[4] == '-');
}

char *bls_path_to_efi(const char *path) {
        char *s = fstrdup(path), *t = s;

        fassert(path);

        if (!s)
                return NULL;
        /* '/' becomes '\' and runs of separators collapse to one */
        for (const char *p = path; *p; p++) {
                char c = *p == '/' ? '\\' : *p;
                if (c == '\\' && t > s && t[-1] == '\\')
                        continue;
                *t++ = c;
        }
        *t = 0;
        return s;
}

char *bls_entry_load_options(const BlsEntry *e) {
        size_t pl = e->profile ? fstrlen(e->profile) + 2 : 0;
        size_t ol = e->options && !e->options_implied ? fstrlen(e->options) : 0;
        char *text;

        fassert(e);

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
        fmemcpy(text + pl, ol ? e->options : "", ol);
        text[pl + ol - (ol ? 0 : 1)] = 0;
        return text;
}

/* Matches one pattern element ("?", "[...]" or a character) against c and moves *p past it. An
 * unterminated "[" never matches. */
static bool glob_element(const char **p, char c) {
        const char *q = *p;
        bool match = false;

        if (*q == '?') {
                *p = q + 1;
                return true;
        }
        if (*q != '[') {
                *p = q + 1;
                return fascii_tolower(*q) == fascii_tolower(c);
        }
        for (q++; *q && *q != ']'; q++) {
                if (q[1] == '-' && q[2] && q[2] != ']') {
                        if (fascii_tolower(c) >= fascii_tolower(q[0]) && fascii_tolower(c) <= fascii_tolower(q[2]))
                                match = true;
                        q += 2;
                } else if (fascii_tolower(*q) == fascii_tolower(c))
                        match = true;
        }
        *p = *q ? q + 1 : q;
        return *q && match;
}

bool bls_glob_match(const char *p, const char *s) {
        fassert(p);
        fassert(s);

        /* Every element but "*" matches exactly one character, so on a mismatch it is enough to let
         * the last "*" take one character more: time O(pattern x string), where trying every split
         * for every "*" (recursion) is exponential in the number of stars, and a loader.conf or EFI
         * variable is input the boot manager must survive. */
        const char *star_p = NULL, *star_s = NULL;

        for (;;) {
                if (*p == '*') {
                        while (*p == '*')
                                p++;
                        if (!*p)
                                return true;
                        star_p = p;
                        star_s = s;
                        continue;
                }
                if (*s && *p) {
                        const char *next = p;

                        if (glob_element(&next, *s)) {
                                p = next;
                                s++;
                                continue;
                        }
                } else if (!*s && !*p)
                        return true;
                if (!star_p || !*star_s)
                        return false;
                p = star_p;
                s = ++star_s;
        }
}
