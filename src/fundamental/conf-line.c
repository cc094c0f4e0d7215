/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Line rules shared by loader.conf, Type #1 entries and os-release style sections.
 */
#include "assert-fundamental.h"
#include "conf-line.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

static bool is_one_of(char c, const char *set) {
        for (; *set; set++)
                if (c == *set)
                        return true;
        return false;
}

static bool is_blank(char c) {
        return c == ' ' || c == '\t';
}

bool conf_line_next(const char *text, size_t size, size_t *pos, const char *separators, ConfLine *ret) {
        fassert(text || size == 0);
        fassert(pos);
        fassert(separators);
        fassert(ret);

        while (*pos < size) {
                size_t start = *pos, end, k, v;

                while (*pos < size && text[*pos] != '\n' && text[*pos] != '\r')
                        (*pos)++;
                end = *pos;
                if (*pos < size)
                        (*pos)++;
                while (start < end && is_blank(text[start]))
                        start++;
                while (end > start && is_blank(text[end - 1]))
                        end--;
                if (start == end || text[start] == '#')
                        continue;
                for (k = start; k < end && !is_one_of(text[k], separators); k++)
                        ;
                if (k == end || k == start)
                        continue;
                for (v = k; v < end && is_one_of(text[v], separators); v++)
                        ;
                if (end - v >= 2 && text[v] == '"' && text[end - 1] == '"') {
                        v++;
                        end--;
                }
                *ret = (ConfLine) { text + start, text + v, k - start, end - v };
                return true;
        }
        return false;
}

bool conf_line_key_is(const ConfLine *l, const char *key) {
        fassert(l);
        fassert(key);

        return l->key_len == fstrlen(key) && fmemcmp(l->key, key, l->key_len) == 0;
}

static bool word_is(const char *v, size_t n, const char *word) {
        return n == fstrlen(word) && fmemcmp(v, word, n) == 0;
}

int conf_parse_bool(const char *v, size_t n) {
        static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
        static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

        fassert(v || n == 0);

        for (size_t i = 0; i < ELEMENTSOF(yes); i++) {
                if (word_is(v, n, yes[i]))
                        return 1;
                if (word_is(v, n, no[i]))
                        return 0;
        }
        return -EINVAL;
}

char *conf_osrel_value(const char *text, size_t size, const char *key) {
        size_t pos = 0;
        ConfLine l;
        char *found = NULL;

        fassert(text || size == 0);
        fassert(key);

        /* the last assignment wins, as in a shell */
        while (conf_line_next(text, size, &pos, "=", &l))
                if (conf_line_key_is(&l, key)) {
                        ffree(found);
                        found = fstrndup(l.value, l.value_len);
                }
        return found;
}
