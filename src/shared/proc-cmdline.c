/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The kernel command line, split and filtered exactly as systemd does.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "initrd.h"
#include "proc-cmdline.h"
#include "string-util.h"

#define CMDLINE_WHITESPACE " \t\n\r"
#define CMDLINE_MAX (1024 * 1024)

int proc_cmdline(char **ret) {
        const char *e = getenv("SYSTEMD_PROC_CMDLINE");
        char *s;
        size_t n;
        int r;

        assert(ret);

        if (e) {
                s = strdup(e);
                if (!s)
                        return -ENOMEM;
        } else {
                r = read_full_file("/proc/cmdline", CMDLINE_MAX, &s, NULL);
                if (r < 0)
                        return r;
        }

        n = strlen(s);
        while (n > 0 && s[n - 1] == '\n')
                s[--n] = 0;

        *ret = s;
        return 0;
}

int cmdline_extract_word(const char **p, char **ret) {
        const char *s = *p + strspn(*p, CMDLINE_WHITESPACE);
        char *w, quote = 0;
        size_t n = 0;

        assert(p);
        assert(ret);

        if (*s == 0) {
                *p = s;
                return 0;
        }

        /* The word is never longer than what is left of the line. */
        w = malloc(strlen(s) + 1);
        if (!w)
                return -ENOMEM;

        for (; *s; s++) {
                if (quote) {
                        if (*s == quote)
                                quote = 0;
                        else
                                w[n++] = *s;
                } else if (*s == '"' || *s == '\'')
                        quote = *s;
                else if (strchr(CMDLINE_WHITESPACE, *s))
                        break;
                else
                        w[n++] = *s;
        }
        w[n] = 0;

        *p = s + strspn(s, CMDLINE_WHITESPACE);
        *ret = w;
        return 1;
}

int cmdline_split(const char *line, char ***ret) {
        _cleanup_strv_free_ char **l = NULL;
        const char *p = line;
        int r;

        assert(line);
        assert(ret);

        for (;;) {
                char *w;

                r = cmdline_extract_word(&p, &w);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                r = strv_consume(&l, w);
                if (r < 0)
                        return r;
        }

        if (!l) {
                l = calloc(1, sizeof(char *));
                if (!l)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

/* Applies the rd. rules: returns the key as the caller sees it, or NULL to skip the word. */
static const char *mangle_word(const char *word, ProcCmdlineFlags flags, bool initrd) {
        const char *c = startswith(word, "rd.");

        if (c) {
                /* rd. words are for the initrd only, whatever the flags */
                if (!initrd)
                        return NULL;
                return (flags & PROC_CMDLINE_STRIP_RD_PREFIX) ? c : word;
        }
        if ((flags & PROC_CMDLINE_RD_STRICT) && initrd)
                return NULL;
        return word;
}

int proc_cmdline_parse_given(const char *line, proc_cmdline_parse_t cb, void *userdata, ProcCmdlineFlags flags) {
        _cleanup_free_ char *owned = NULL;
        const char *p;
        bool initrd = in_initrd();
        int r;

        if (!line) {
                r = proc_cmdline(&owned);
                if (r < 0)
                        return r;
                line = owned;
        }

        for (p = line;;) {
                _cleanup_free_ char *word = NULL;
                const char *key;
                char *eq;

                r = cmdline_extract_word(&p, &word);
                if (r < 0)
                        return r;
                if (r == 0)
                        return 0;
                if (!*word)
                        continue;

                key = mangle_word(word, flags, initrd);
                if (!key)
                        continue;

                /* key points into word, so splitting word at "=" splits key too */
                eq = strchr(word + (key - word), '=');
                if (eq)
                        *eq = 0;
                if (!*key)
                        continue;
                r = cb(key, eq ? eq + 1 : NULL, userdata);
                if (r < 0)
                        return r;
        }
}

int proc_cmdline_parse(proc_cmdline_parse_t cb, void *userdata, ProcCmdlineFlags flags) {
        return proc_cmdline_parse_given(NULL, cb, userdata, flags);
}

static bool key_char_eq(char a, char b) {
        if (a == '_')
                a = '-';
        if (b == '_')
                b = '-';
        return a == b;
}

bool proc_cmdline_key_streq(const char *x, const char *y) {
        assert(x);
        assert(y);

        for (; *x || *y; x++, y++)
                if (!key_char_eq(*x, *y))
                        return false;
        return true;
}

const char *proc_cmdline_key_startswith(const char *s, const char *prefix) {
        assert(s);
        assert(prefix);

        for (; *prefix; s++, prefix++)
                if (!*s || !key_char_eq(*s, *prefix))
                        return NULL;
        return s;
}

struct key_lookup {
        const char *key;
        bool found;
        char *value;
};

static int lookup_last(const char *key, const char *value, void *userdata) {
        struct key_lookup *l = userdata;
        char *v = NULL;

        if (!proc_cmdline_key_streq(key, l->key))
                return 0;
        if (value) {
                v = strdup(value);
                if (!v)
                        return -ENOMEM;
        }
        free(l->value);
        l->value = v;
        l->found = true;
        return 0;
}

int proc_cmdline_get_key(const char *key, ProcCmdlineFlags flags, char **ret_value) {
        struct key_lookup l = { .key = key };
        int r;

        assert(key);

        r = proc_cmdline_parse(lookup_last, &l, flags);
        if (r < 0) {
                free(l.value);
                return r;
        }
        if (ret_value)
                *ret_value = l.value;
        else
                free(l.value);
        return l.found;
}
