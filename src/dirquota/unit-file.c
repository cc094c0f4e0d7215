/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A reader for the unit file syntax, line by line as systemd's config_parse() goes.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "macro.h"
#include "string-util.h"
#include "unit-file.h"
#include "utf16.h"

#define UNIT_FILE_SIZE_MAX (16U * 1024U * 1024U)
#define WHITESPACE " \t\n\r"

static char *strip(char *s) {
        char *e;

        s += strspn(s, WHITESPACE);
        e = s + strlen(s);
        while (e > s && strchr(WHITESPACE, e[-1]))
                e--;
        *e = 0;
        return s;
}

bool unit_file_line_continues(const char *s) {
        bool escaped = false;

        assert(s);

        for (; *s; s++)
                escaped = !escaped && *s == '\\';
        return escaped;
}

typedef struct Parser {
        char *section;
        unit_file_assignment_t cb;
        void *userdata;
} Parser;

static int parse_logical_line(Parser *p, char *l, unsigned line) {
        char *eq, *key;

        l = strip(l);
        if (isempty(l) || strchr("#;", l[0]))
                return 0;
        if (!utf8_is_valid(l, strlen(l)))
                return 0;

        if (l[0] == '[') {
                size_t n = strlen(l);
                char *name;

                if (l[n - 1] != ']')
                        return -EBADMSG;
                name = strndup(l + 1, n - 2);
                if (!name)
                        return -ENOMEM;
                free(p->section);
                p->section = name;
                return 0;
        }

        if (!p->section)
                return 0;
        eq = strchr(l, '=');
        if (!eq || eq == l)
                return 0;
        *eq = 0;
        key = strip(l);
        return p->cb(p->section, key, strip(eq + 1), line, p->userdata);
}

int unit_file_parse_text(const char *text, size_t size, unit_file_assignment_t cb, void *userdata) {
        _cleanup_free_ char *continuation = NULL;
        Parser p = { .cb = cb, .userdata = userdata };
        unsigned line = 0, start_line = 0;
        const char *s = text, *end = text + size;
        int r = 0;

        assert(text || size == 0);

        if (size >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
                s += 3;

        while (s < end && r >= 0) {
                const char *nl = memchr(s, '\n', end - s);
                size_t len = (nl ?: end) - s;
                _cleanup_free_ char *buf = strndup(s, len);
                char *logical;

                s += len + !!nl;
                line++;
                if (!buf) {
                        r = -ENOMEM;
                        break;
                }
                /* NUL bytes end the line for systemd too (it reads C strings) */
                if (len > UNIT_FILE_LINE_MAX) {
                        r = -EBADMSG;
                        break;
                }
                /* comment lines are dropped before continuation is considered */
                if (strchr("#;", buf[strspn(buf, WHITESPACE)]) && buf[strspn(buf, WHITESPACE)] != 0)
                        continue;

                if (continuation) {
                        if (strlen(continuation) + strlen(buf) > UNIT_FILE_LINE_MAX) {
                                r = -EBADMSG;
                                break;
                        }
                        if (!strextend(&continuation, buf, NULL)) {
                                r = -ENOMEM;
                                break;
                        }
                        logical = continuation;
                } else {
                        logical = buf;
                        start_line = line;
                }

                if (unit_file_line_continues(logical)) {
                        logical[strlen(logical) - 1] = ' ';
                        if (!continuation)
                                continuation = TAKE_PTR(buf);
                        continue;
                }

                r = parse_logical_line(&p, logical, start_line);
                continuation = mfree(continuation);
        }

        /* a file ending in a continued line: systemd parses what it has */
        if (r >= 0 && continuation)
                r = parse_logical_line(&p, continuation, start_line);
        free(p.section);
        return r;
}

int unit_file_parse(const char *path, unit_file_assignment_t cb, void *userdata) {
        _cleanup_free_ char *text = NULL;
        size_t size;
        int r;

        assert(path);

        r = read_full_file(path, UNIT_FILE_SIZE_MAX, &text, &size);
        if (r < 0)
                return r;
        return unit_file_parse_text(text, size, cb, userdata);
}
