/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Turning what a user typed into a unit name.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "path-util.h"
#include "string-util.h"
#include "unit-name-mangle.h"
#include "unit-name.h"

static const char *const unit_types[] = {
        "service", "mount", "swap", "socket", "target", "device", "automount", "timer", "path", "slice", "scope",
};

static bool is_unit_type(const char *s) {
        for (size_t i = 0; i < ELEMENTSOF(unit_types); i++)
                if (streq(s, unit_types[i]))
                        return true;
        return false;
}

static bool is_plain_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr(":-_.\\", c);
}

bool unit_suffix_is_valid(const char *suffix) {
        return suffix && suffix[0] == '.' && is_unit_type(suffix + 1);
}

bool unit_name_is_valid(const char *name) {
        const char *dot, *at = NULL;

        if (isempty(name) || strlen(name) >= UNIT_NAME_MAX + 1)
                return false;
        dot = strrchr(name, '.');
        if (!dot || dot == name || !is_unit_type(dot + 1))
                return false;

        for (const char *p = name; p < dot; p++) {
                if (*p == '@' && !at)
                        at = p;
                if (!is_plain_char(*p) && *p != '@')
                        return false;
        }
        /* The first "@" ends the prefix, which must not be empty; the instance may hold more. */
        return at != name;
}

static bool is_glob(const char *s) {
        return strpbrk(s, "*?[");
}

static bool is_glob_char(char c) {
        return is_plain_char(c) || strchr("@[]!-*?", c);
}

static bool all_glob_chars(const char *s) {
        for (; *s; s++)
                if (!is_glob_char(*s))
                        return false;
        return true;
}

/* The next path component after p, skipping slashes and "." components; NULL at the end. */
static const char *next_component(const char *p, size_t *ret_len) {
        for (;;) {
                size_t n;

                p += strspn(p, "/");
                if (!*p)
                        return NULL;
                n = strcspn(p, "/");
                if (n == 1 && p[0] == '.') {
                        p++;
                        continue;
                }
                *ret_len = n;
                return p;
        }
}

/* "/dev/X" or "/sys/X": a device by path, if something follows the prefix (so "/dev/" is a mount). */
static bool is_device_path(const char *path) {
        const char *c;
        size_t n;

        if (path[0] != '/')
                return false;
        c = next_component(path, &n);
        if (!c || n != 3 || (strncmp(c, "dev", 3) != 0 && strncmp(c, "sys", 3) != 0))
                return false;
        return next_component(c + n, &n);
}

/* "/dev/sda" → "dev-sda.device"; 0 when path does not turn into a valid name. */
static int name_from_path(const char *path, const char *suffix, char **ret) {
        _cleanup_free_ char *e = NULL;
        char *n;
        int r;

        r = unit_name_path_escape(path, &e);
        if (r == -EINVAL)
                return 0;
        if (r < 0)
                return r;
        n = strextend(&e, suffix, NULL);
        if (!n)
                return -ENOMEM;
        if (!unit_name_is_valid(n))
                return 0;
        *ret = TAKE_PTR(e);
        return 1;
}

int unit_name_mangle(const char *name, const char *suffix, char **ret) {
        static const char hex[] = "0123456789abcdef";
        _cleanup_free_ char *s = NULL;
        int flags = 0, r;
        char *t;

        assert(ret);

        if (isempty(name) || !unit_suffix_is_valid(suffix))
                return -EINVAL;

        if (unit_name_is_valid(name)) {
                s = strdup(name);
                if (!s)
                        return -ENOMEM;
                *ret = TAKE_PTR(s);
                return 0;
        }

        if (is_glob(name) && all_glob_chars(name))
                flags |= UNIT_NAME_MANGLED_GLOB;

        if (is_device_path(name)) {
                r = name_from_path(name, ".device", ret);
                if (r != 0)
                        return r < 0 ? r : flags;
        }
        if (path_is_absolute(name)) {
                r = name_from_path(name, ".mount", ret);
                if (r != 0)
                        return r < 0 ? r : flags;
        }

        /* Each byte grows to at most four ("\xNN"), then the suffix. */
        s = malloc(strlen(name) * 4 + strlen(suffix) + 1);
        if (!s)
                return -ENOMEM;
        t = s;
        for (const char *p = name; *p; p++)
                if (*p == '/') {
                        *t++ = '-';
                        flags |= UNIT_NAME_MANGLED_ESCAPED;
                } else if (is_plain_char(*p) || *p == '@')
                        *t++ = *p;
                else {
                        *t++ = '\\';
                        *t++ = 'x';
                        *t++ = hex[(unsigned char) *p >> 4];
                        *t++ = hex[(unsigned char) *p & 15];
                        flags |= UNIT_NAME_MANGLED_ESCAPED;
                }
        *t = 0;

        if (!unit_name_is_valid(s)) {
                strcpy(t, suffix);
                flags |= UNIT_NAME_MANGLED_SUFFIXED;
        }
        if (!unit_name_is_valid(s))
                return -EINVAL;

        *ret = TAKE_PTR(s);
        return flags;
}
