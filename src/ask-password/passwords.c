/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Lists of passwords that are wiped when freed.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "passwords.h"
#include "string-util.h"

char **passwords_free(char **l) {
        if (!l)
                return NULL;
        for (char **p = l; *p; p++) {
                explicit_bzero(*p, strlen(*p));
                free(*p);
        }
        free(l);
        return NULL;
}

size_t passwords_count(char *const *l) {
        size_t n = 0;

        while (l && l[n])
                n++;
        return n;
}

void secret_free(void *p, size_t size) {
        if (!p)
                return;
        explicit_bzero(p, size);
        free(p);
}

static int passwords_append(char ***l, const char *s, size_t len) {
        size_t n = passwords_count(*l);
        char **m, *copy;

        copy = strndup(s, len);
        if (!copy)
                return -ENOMEM;
        /* A fresh array rather than realloc: realloc could leave pointers behind, which is
         * harmless, but keeping one way of growing makes the wiping easy to check. */
        m = calloc(n + 2, sizeof(char *));
        if (!m) {
                secret_free(copy, len);
                return -ENOMEM;
        }
        if (n > 0)
                memcpy(m, *l, n * sizeof(char *));
        m[n] = copy;
        free(*l);
        *l = m;
        return 0;
}

int passwords_from_nulstr(const char *data, size_t size, char ***ret) {
        _cleanup_passwords_ char **l = calloc(1, sizeof(char *));
        size_t start = 0;
        int r;

        assert(data || size == 0);
        assert(ret);

        if (!l)
                return -ENOMEM;
        for (size_t i = 0; i <= size; i++) {
                if (i < size && data[i] != 0)
                        continue;
                /* The end of the data ends an item only if the item is not empty there. */
                if (i == size && start == size)
                        break;
                r = passwords_append(&l, data + start, i - start);
                if (r < 0)
                        return r;
                start = i + 1;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

int passwords_to_nulstr(char *const *l, char **ret, size_t *ret_size) {
        size_t size = 0, n = passwords_count(l);
        char *p, *q;

        assert(l);
        assert(ret);
        assert(ret_size);

        for (size_t i = 0; i < n; i++)
                size += strlen(l[i]) + 1;
        p = malloc(size > 0 ? size : 1);
        if (!p)
                return -ENOMEM;
        q = p;
        for (size_t i = 0; i < n; i++) {
                size_t len = strlen(l[i]);

                memcpy(q, l[i], len + 1);
                q += len + 1;
        }
        *ret = p;
        /* Separators only between passwords: the last NUL is not part of the data. */
        *ret_size = size > 0 ? size - 1 : 0;
        return 0;
}

int passwords_merge(char ***l, char *const *add) {
        assert(l);

        for (size_t i = 0; add && add[i]; i++) {
                int r;

                if (strv_contains(*l, add[i]))
                        continue;
                r = passwords_append(l, add[i], strlen(add[i]));
                if (r < 0)
                        return r;
        }
        return 0;
}
