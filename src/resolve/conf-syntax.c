/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemd's configuration file syntax, as v258's config_parse() reads it.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-syntax.h"
#include "macro.h"
#include "string-util.h"

#define WHITESPACE " \t\n\r"
#define COMMENTS "#;"
#define UTF8_BOM "\xef\xbb\xbf"

enum {
        EOL_ZERO = 1 << 0,
        EOL_TEN = 1 << 1,
        EOL_THIRTEEN = 1 << 2,
};

static int eol_kind(char c) {
        return c == '\n' ? EOL_TEN : c == '\r' ? EOL_THIRTEEN : c == 0 ? EOL_ZERO : 0;
}

/* One physical line: its text is [start, start+len), *pos moves past its ending. Endings combine
 * as long as no marker repeats and no NUL came before (read_line_full()'s rule). Returns false at
 * the end of the text, -ENOBUFS for a line reaching the limit. */
static int next_line(const char *text, size_t size, size_t *pos, size_t *ret_start, size_t *ret_len) {
        size_t i = *pos, start = i, len = 0;
        int seen = 0;

        if (i >= size)
                return 0;

        for (; i < size; i++) {
                int k;

                if (len >= CONF_SYNTAX_LINE_MAX)
                        return -ENOBUFS;
                k = eol_kind(text[i]);
                if ((seen & EOL_ZERO) || (k == 0 && seen) || (k && (seen & k)))
                        break;
                if (k) {
                        seen |= k;
                        continue;
                }
                len++;
        }
        /* The limit also applies at the end of the text. */
        if (!seen && len >= CONF_SYNTAX_LINE_MAX)
                return -ENOBUFS;

        *pos = i;
        *ret_start = start;
        *ret_len = len;
        return 1;
}

static char *strip(char *s) {
        char *e;

        s += strspn(s, WHITESPACE);
        e = s + strlen(s);
        while (e > s && strchr(WHITESPACE, e[-1]))
                *--e = 0;
        return s;
}

/* Decodes one character; returns its length or -EINVAL. */
static int utf8_one(const unsigned char *s) {
        unsigned cp;
        int len;

        if (s[0] < 0x80)
                return 1;
        if ((s[0] & 0xe0) == 0xc0)
                len = 2, cp = s[0] & 0x1f;
        else if ((s[0] & 0xf0) == 0xe0)
                len = 3, cp = s[0] & 0x0f;
        else if ((s[0] & 0xf8) == 0xf0)
                len = 4, cp = s[0] & 0x07;
        else
                return -EINVAL; /* 5 and 6 byte forms encode beyond U+10FFFF anyway */

        for (int i = 1; i < len; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return -EINVAL;
                cp = (cp << 6) | (s[i] & 0x3f);
        }

        if ((cp < 0x80) || (cp < 0x800 && len > 2) || (cp < 0x10000 && len > 3)) /* overlong */
                return -EINVAL;
        if (cp >= 0x110000 || (cp & 0xfffff800) == 0xd800 || (cp >= 0xfdd0 && cp <= 0xfdef) ||
            (cp & 0xfffe) == 0xfffe)
                return -EINVAL;
        return len;
}

int conf_utf8_is_valid(const char *s) {
        assert(s);

        for (const unsigned char *p = (const unsigned char *) s; *p;) {
                int n = utf8_one(p);

                if (n < 0)
                        return false;
                p += n;
        }
        return true;
}

static bool string_is_safe(const char *s) {
        for (; *s; s++)
                if ((*s > 0 && *s < ' ') || strchr("\"'\\\x7f", *s))
                        return false;
        return true;
}

_printf_(4, 5) static void diag(const ConfSyntaxHandler *h, void *userdata, unsigned line, const char *fmt, ...) {
        _cleanup_free_ char *m = NULL;
        va_list ap;
        int r;

        if (!h->diagnostic)
                return;
        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r >= 0)
                h->diagnostic(line, m, userdata);
}

typedef struct ParseState {
        const char *const *sections;
        const ConfSyntaxHandler *handler;
        void *userdata;
        char *section;          /* the current known section, or NULL */
        bool section_ignored;   /* an unknown section is open */
} ParseState;

static bool section_known(const ParseState *s, const char *name) {
        for (const char *const *t = s->sections; *t; t++)
                if (streq(*t, name))
                        return true;
        return false;
}

static int parse_section_header(ParseState *s, char *l, unsigned line) {
        size_t k = strlen(l);
        char *name;

        if (l[k - 1] != ']') {
                diag(s->handler, s->userdata, line, "Invalid section header '%s'", l);
                return -EBADMSG;
        }
        name = strndup(l + 1, k - 2);
        if (!name)
                return -ENOMEM;
        if (!string_is_safe(name)) {
                diag(s->handler, s->userdata, line, "Bad characters in section header '%s'", l);
                free(name);
                return -EBADMSG;
        }

        s->section = mfree(s->section);
        if (section_known(s, name)) {
                s->section = name;
                s->section_ignored = false;
                return 0;
        }
        if (!startswith(name, "X-"))
                diag(s->handler, s->userdata, line, "Unknown section '%s'. Ignoring.", name);
        s->section_ignored = true;
        free(name);
        return 0;
}

/* One logical line (parse_line()). */
static int parse_logical_line(ParseState *s, char *l, unsigned line) {
        char *e;

        l = strip(l);
        if (isempty(l))
                return 0;
        if (!conf_utf8_is_valid(l)) {
                diag(s->handler, s->userdata, line, "String is not UTF-8 clean, ignoring assignment");
                return -EINVAL;
        }
        if (l[0] == '[')
                return parse_section_header(s, l, line);

        if (!s->section) {
                if (!s->section_ignored)
                        diag(s->handler, s->userdata, line, "Assignment outside of section. Ignoring.");
                return 0;
        }

        e = strchr(l, '=');
        if (!e) {
                diag(s->handler, s->userdata, line, "Missing '=', ignoring line.");
                return 0;
        }
        if (e == l) {
                diag(s->handler, s->userdata, line, "Missing key name before '=', ignoring line.");
                return 0;
        }
        *e++ = 0;
        if (s->handler->assignment)
                s->handler->assignment(s->section, strip(l), strip(e), line, s->userdata);
        return 0;
}

/* True if p ends in an unpaired backslash (the line continues). */
static bool ends_escaped(const char *p, char **ret_last) {
        bool escaped = false;
        const char *e;

        for (e = p; *e; e++)
                escaped = escaped ? false : *e == '\\';
        *ret_last = escaped ? (char *) e - 1 : NULL;
        return escaped;
}

int conf_syntax_parse(const char *text, size_t size, const char *const *sections, const ConfSyntaxHandler *handler,
                      void *userdata) {
        ParseState s = { .sections = sections, .handler = handler, .userdata = userdata };
        _cleanup_free_ char *continuation = NULL;
        bool bom_seen = false;
        size_t pos = 0;
        unsigned line = 0;
        int r = 0;

        assert(text || size == 0);
        assert(sections);
        assert(handler);

        for (;;) {
                _cleanup_free_ char *buf = NULL;
                size_t start, len;
                char *l, *p, *last;

                r = next_line(text, size, &pos, &start, &len);
                if (r == -ENOBUFS) {
                        diag(handler, userdata, line, "Line too long");
                        goto finish;
                }
                if (r == 0)
                        break;
                line++;

                buf = strndup(text + start, len);
                if (!buf) {
                        r = -ENOMEM;
                        goto finish;
                }

                l = buf + strspn(buf, WHITESPACE);
                if (*l && strchr(COMMENTS, *l))
                        continue;

                l = buf;
                if (!bom_seen && startswith(buf, UTF8_BOM)) {
                        l = buf + STRLEN(UTF8_BOM);
                        bom_seen = true;
                }

                if (continuation) {
                        if (strlen(continuation) + strlen(l) > CONF_SYNTAX_LINE_MAX) {
                                diag(handler, userdata, line, "Continuation line too long");
                                r = -ENOBUFS;
                                goto finish;
                        }
                        if (!strextend(&continuation, l, NULL)) {
                                r = -ENOMEM;
                                goto finish;
                        }
                        p = continuation;
                } else
                        p = l;

                if (ends_escaped(p, &last)) {
                        *last = ' ';
                        if (!continuation) {
                                continuation = strdup(l);
                                if (!continuation) {
                                        r = -ENOMEM;
                                        goto finish;
                                }
                        }
                        continue;
                }

                r = parse_logical_line(&s, p, line);
                if (r < 0)
                        goto finish;
                continuation = mfree(continuation);
        }

        if (continuation)
                r = parse_logical_line(&s, continuation, ++line);
        else
                r = 0;

finish:
        free(s.section);
        return r < 0 ? r : 0;
}

int conf_extract_word(const char **p, char **ret) {
        _cleanup_free_ char *word = NULL;
        const char *s = *p;
        size_t n = 0;

        assert(p);
        assert(ret);

        if (!s) {
                *ret = NULL;
                return 0;
        }
        s += strspn(s, WHITESPACE);
        if (!*s) {
                *p = NULL;
                *ret = NULL;
                return 0;
        }

        word = malloc(strlen(s) + 1);
        if (!word)
                return -ENOMEM;

        for (; *s && !strchr(WHITESPACE, *s); s++) {
                if (*s == '\\') {
                        s++;
                        if (!*s)
                                return -EINVAL;
                }
                word[n++] = *s;
        }
        word[n] = 0;

        s += strspn(s, WHITESPACE);
        *p = *s ? s : NULL;
        *ret = TAKE_PTR(word);
        return 1;
}
