/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Member names given twice in a message, which json-c folds into one (the last wins) and sd-varlink
 * refuses.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "macro.h"
#include "string-util.h"
#include "varlink-members.h"

typedef struct Names {
        char **v;
        size_t n, allocated;
} Names;

typedef struct Scan {
        const char *p, *end;
        Names flags;            /* the message's members "oneway" and "more", which may come twice */
        bool flag_set;          /* one of them was true */
        bool flag_refused;      /* one came after that, or was no boolean: sd-varlink ends the connection */
} Scan;


static void names_done(Names *n) {
        for (size_t i = 0; i < n->n; i++)
                free(n->v[i]);
        free(n->v);
}

static void skip_space(Scan *s) {
        while (s->p < s->end && strchr(" \t\r\n", *s->p) && *s->p)
                s->p++;
}

static unsigned hex4(const char *p) {
        unsigned v = 0;

        for (int i = 0; i < 4; i++)
                v = v * 16 + (unsigned) (p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
        return v;
}

static size_t put_utf8(char *o, unsigned c) {
        if (c < 0x80)
                return o[0] = (char) c, 1;
        if (c < 0x800)
                return o[0] = (char) (0xc0 | c >> 6), o[1] = (char) (0x80 | (c & 0x3f)), 2;
        if (c < 0x10000)
                return o[0] = (char) (0xe0 | c >> 12), o[1] = (char) (0x80 | ((c >> 6) & 0x3f)),
                       o[2] = (char) (0x80 | (c & 0x3f)), 3;
        return o[0] = (char) (0xf0 | c >> 18), o[1] = (char) (0x80 | ((c >> 12) & 0x3f)),
               o[2] = (char) (0x80 | ((c >> 6) & 0x3f)), o[3] = (char) (0x80 | (c & 0x3f)), 4;
}

/* A string at s->p (valid JSON: json-c accepted the text), decoded when ret is given. */
static int scan_string(Scan *s, char **ret) {
        const char *start = ++s->p;
        char *out = NULL, *o;

        while (s->p < s->end && *s->p != '"')
                s->p += *s->p == '\\' ? 2 : 1;
        if (s->p >= s->end)
                return -EBADMSG;
        if (ret) {
                /* Decoding never makes a JSON string longer. */
                o = out = malloc((size_t) (s->p - start) + 1);
                if (!out)
                        return -ENOMEM;
                for (const char *q = start; q < s->p;) {
                        unsigned c;

                        if (*q != '\\') {
                                *o++ = *q++;
                                continue;
                        }
                        switch (q[1]) {
                        case 'b': *o++ = '\b'; q += 2; continue;
                        case 'f': *o++ = '\f'; q += 2; continue;
                        case 'n': *o++ = '\n'; q += 2; continue;
                        case 'r': *o++ = '\r'; q += 2; continue;
                        case 't': *o++ = '\t'; q += 2; continue;
                        case 'u': break;
                        default: *o++ = q[1]; q += 2; continue;
                        }
                        c = hex4(q + 2);
                        q += 6;
                        if (c >= 0xd800 && c < 0xdc00 && q + 6 <= s->p && q[0] == '\\' && q[1] == 'u') {
                                c = 0x10000 + ((c - 0xd800) << 10) + (hex4(q + 2) - 0xdc00);
                                q += 6;
                        }
                        o += put_utf8(o, c);
                }
                *o = 0;
                *ret = out;
        }
        s->p++;
        return 0;
}

static int skip_value(Scan *s, unsigned depth);

/* Takes *name over. */
static int names_add(Names *names, char **name) {
        if (names->n >= names->allocated) {
                size_t a = MAX(names->allocated * 2, (size_t) 8);
                char **v = realloc(names->v, a * sizeof(char *));

                if (!v)
                        return -ENOMEM;
                names->v = v, names->allocated = a;
        }
        names->v[names->n++] = TAKE_PTR(*name);
        return 0;
}

/* A message member "oneway" or "more" at s->p, as sd-varlink judges them in order: each must be a
 * boolean, and none may follow one that was true. */
static void scan_call_flag(Scan *s) {
        bool is_true = (size_t) (s->end - s->p) >= 4 && strncmp(s->p, "true", 4) == 0;
        bool is_false = (size_t) (s->end - s->p) >= 5 && strncmp(s->p, "false", 5) == 0;

        if (s->flag_set || (!is_true && !is_false))
                s->flag_refused = true;
        s->flag_set = s->flag_set || is_true;
}

/* The members of the object at s->p: their names into names (when given), each value skipped, except
 * that of a member "parameters" when parameters is given: its members' names go there. */
static int scan_object(Scan *s, unsigned depth, Names *names, Names *parameters) {
        s->p++;
        for (;;) {
                char *name = NULL;
                int r;

                skip_space(s);
                if (s->p >= s->end)
                        return -EBADMSG;
                if (*s->p == '}') {
                        s->p++;
                        return 0;
                }
                if (*s->p == ',') {
                        s->p++;
                        continue;
                }
                r = scan_string(s, names ? &name : NULL);
                if (r < 0)
                        return r;
                skip_space(s);
                s->p++; /* ':' */
                skip_space(s);
                if (name && parameters && streq(name, "parameters") && s->p < s->end && *s->p == '{')
                        r = scan_object(s, depth + 1, parameters, NULL);
                else if (name && parameters && (streq(name, "oneway") || streq(name, "more"))) {
                        /* sd-varlink takes these in order, repeated too, until one is true */
                        scan_call_flag(s);
                        r = names_add(&s->flags, &name);
                        if (r >= 0)
                                r = skip_value(s, depth + 1);
                } else
                        r = skip_value(s, depth + 1);
                if (r >= 0 && name)
                        r = names_add(names, &name);
                free(name);
                if (r < 0)
                        return r;
        }
}

static int skip_value(Scan *s, unsigned depth) {
        if (depth > 256)
                return -EBADMSG;
        skip_space(s);
        if (s->p >= s->end)
                return -EBADMSG;
        if (*s->p == '"')
                return scan_string(s, NULL);
        if (*s->p == '{')
                return scan_object(s, depth, NULL, NULL);
        if (*s->p == '[') {
                s->p++;
                for (;;) {
                        int r;

                        skip_space(s);
                        if (s->p >= s->end)
                                return -EBADMSG;
                        if (*s->p == ']') {
                                s->p++;
                                return 0;
                        }
                        if (*s->p == ',') {
                                s->p++;
                                continue;
                        }
                        r = skip_value(s, depth + 1);
                        if (r < 0)
                                return r;
                }
        }
        /* number, true, false, null */
        while (s->p < s->end && !strchr(",]} \t\r\n", *s->p))
                s->p++;
        return 0;
}

static int compare_names(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The first name, in sorted order, that occurs twice; NULL if none. */
static const char *first_duplicate(Names *n) {
        if (n->n < 2)
                return NULL; /* and no qsort() of a NULL array (found by fuzz-varlink under UBSan) */
        qsort(n->v, n->n, sizeof(char *), compare_names);
        for (size_t i = 1; i < n->n; i++)
                if (streq(n->v[i - 1], n->v[i]))
                        return n->v[i];
        return NULL;
}

int varlink_json_duplicate_member(const char *text, size_t len, char **ret_name) {
        Names top = {}, parameters = {};
        Scan s = { .p = text, .end = text + len };
        const char *dup;
        int r;

        assert(text);
        assert(ret_name);

        *ret_name = NULL;
        skip_space(&s);
        if (s.p >= s.end || *s.p != '{')
                return 0;
        r = scan_object(&s, 0, &top, &parameters);
        if (r >= 0) {
                r = 0;
                /* a repeated flag is refused only as sd-varlink would; a single one is varlink_call_parse()'s */
                if (s.flag_refused && (dup = first_duplicate(&s.flags)))
                        r = VARLINK_DUPLICATE_IN_MESSAGE;
                else if ((dup = first_duplicate(&top)))
                        r = VARLINK_DUPLICATE_IN_MESSAGE;
                else if ((dup = first_duplicate(&parameters)))
                        r = VARLINK_DUPLICATE_IN_PARAMETERS;
                if (r > 0 && !(*ret_name = strdup(dup)))
                        r = -ENOMEM;
                else if (r != VARLINK_DUPLICATE_IN_MESSAGE && s.flags.n > 1 && first_duplicate(&s.flags))
                        r |= VARLINK_CALL_FLAGS_REPEATED;
        }
        names_done(&top);
        names_done(&parameters);
        names_done(&s.flags);
        return r;
}

void varlink_call_fold_flags(struct json_object *msg) {
        static const char *const keys[] = { "oneway", "more" };
        struct json_object *v;

        for (size_t i = 0; i < ELEMENTSOF(keys); i++)
                if (json_object_object_get_ex(msg, keys[i], &v) && json_object_is_type(v, json_type_boolean) &&
                    !json_object_get_boolean(v))
                        json_object_object_del(msg, keys[i]);
}
