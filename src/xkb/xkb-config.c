/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The keyboard settings localed keeps for X11, and the environment file Wayland sessions read.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "macro.h"
#include "string-util.h"
#include "xkb-config.h"

void xkb_config_done(XkbConfig *c) {
        assert(c);

        free(c->layout);
        free(c->model);
        free(c->variant);
        free(c->options);
        *c = (XkbConfig) {};
}

bool xkb_config_is_empty(const XkbConfig *c) {
        assert(c);

        return isempty(c->layout) && isempty(c->model) && isempty(c->variant) && isempty(c->options);
}

static int set_value(char **field, const char *v) {
        char *n = strdup(v);

        if (!n)
                return -ENOMEM;
        free(*field);
        *field = n;
        return 0;
}

/* Splits one line into up to max words: whitespace separates, double quotes group, "#" outside
 * quotes starts a comment. Works in place; returns the number of words. */
static int split_x11_line(char *line, char **words, int max) {
        int n = 0;
        char *r = line, *w;

        for (;;) {
                r += strspn(r, " \t\r");
                if (!*r || *r == '#')
                        return n;
                w = r;
                if (n < max)
                        words[n] = w;
                n++;
                for (char quote = 0; *r; r++) {
                        if (*r == '"') {
                                quote = !quote;
                                continue;
                        }
                        if (!quote && (*r == ' ' || *r == '\t' || *r == '\r' || *r == '#'))
                                break;
                        *w++ = *r;
                }
                if (*r == '#') {
                        *w = 0;
                        return n;
                }
                if (*r)
                        r++;
                *w = 0;
        }
}

static char **x11_field(XkbConfig *c, const char *option) {
        if (strcasecmp(option, "XkbLayout") == 0)
                return &c->layout;
        if (strcasecmp(option, "XkbModel") == 0)
                return &c->model;
        if (strcasecmp(option, "XkbVariant") == 0)
                return &c->variant;
        if (strcasecmp(option, "XkbOptions") == 0)
                return &c->options;
        return NULL;
}

int xkb_config_parse_x11(const char *text, XkbConfig *ret) {
        _cleanup_free_ char *copy = NULL;
        XkbConfig c = {};
        bool in_input_class = false;
        char *save = NULL;

        assert(text);
        assert(ret);

        copy = strdup(text);
        if (!copy)
                return -ENOMEM;

        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *w[4];
                int n = split_x11_line(line, w, 4);
                char **field;

                if (n == 2 && strcasecmp(w[0], "Section") == 0)
                        in_input_class = strcasecmp(w[1], "InputClass") == 0;
                else if (n == 1 && strcasecmp(w[0], "EndSection") == 0)
                        in_input_class = false;
                else if (in_input_class && n == 3 && strcasecmp(w[0], "Option") == 0 && (field = x11_field(&c, w[1])))
                        if (set_value(field, w[2]) < 0) {
                                xkb_config_done(&c);
                                return -ENOMEM;
                        }
        }

        *ret = c;
        return 0;
}

/* Names of layout, model, variant and options in a KEY=VALUE file format. */
typedef const char *const AssignmentKeys[4];

static const AssignmentKeys env_keys = {
        "XKB_DEFAULT_LAYOUT", "XKB_DEFAULT_MODEL", "XKB_DEFAULT_VARIANT", "XKB_DEFAULT_OPTIONS",
};
static const AssignmentKeys debian_keys = { "XKBLAYOUT", "XKBMODEL", "XKBVARIANT", "XKBOPTIONS" };

static char **assignment_field(XkbConfig *c, const AssignmentKeys keys, const char *key) {
        char **fields[4] = { &c->layout, &c->model, &c->variant, &c->options };

        for (int i = 0; i < 4; i++)
                if (streq(key, keys[i]))
                        return fields[i];
        return NULL;
}

/* Reads shell-style KEY=VALUE lines (values optionally in matching quotes); other lines are ignored. */
static int parse_assignments(const char *text, const AssignmentKeys keys, XkbConfig *ret) {
        _cleanup_free_ char *copy = strdup(text);
        XkbConfig c = {};
        char *save = NULL;

        if (!copy)
                return -ENOMEM;

        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *eq, *v, **field;
                size_t n;

                line += strspn(line, " \t");
                if (startswith(line, "export "))
                        line += STRLEN("export ");
                eq = strchr(line, '=');
                if (line[0] == '#' || !eq)
                        continue;
                *eq = 0;
                field = assignment_field(&c, keys, line);
                if (!field)
                        continue;
                v = eq + 1;
                n = strcspn(v, "\r");
                v[n] = 0;
                while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
                        v[--n] = 0;
                if (n >= 2 && ((v[0] == '"' && v[n - 1] == '"') || (v[0] == '\'' && v[n - 1] == '\''))) {
                        v[n - 1] = 0;
                        v++;
                }
                if (set_value(field, v) < 0) {
                        xkb_config_done(&c);
                        return -ENOMEM;
                }
        }

        *ret = c;
        return 0;
}

int xkb_config_parse_env(const char *text, XkbConfig *ret) {
        assert(text);
        assert(ret);

        return parse_assignments(text, env_keys, ret);
}

int xkb_config_parse_debian(const char *text, XkbConfig *ret) {
        assert(text);
        assert(ret);

        return parse_assignments(text, debian_keys, ret);
}

bool xkb_value_is_safe(const char *v) {
        if (!v)
                return true;
        for (; *v; v++)
                if ((unsigned char) *v < ' ' || *v == 0x7f || strchr("\"'\\$`", *v))
                        return false;
        return true;
}

const char *xkb_config_find_unsafe(const XkbConfig *c) {
        assert(c);

        if (!xkb_value_is_safe(c->layout))
                return "layout";
        if (!xkb_value_is_safe(c->model))
                return "model";
        if (!xkb_value_is_safe(c->variant))
                return "variant";
        if (!xkb_value_is_safe(c->options))
                return "options";
        return NULL;
}

static bool append_line(char **s, const char *fmt_prefix, const char *value, const char *suffix) {
        if (isempty(value))
                return true;
        return strextend(s, fmt_prefix, value, suffix, NULL);
}

char *xkb_config_render_x11(const XkbConfig *c) {
        char *s = strdup("# Written by systemd-localed(8), read by systemd-localed and Xorg. It's\n"
                         "# probably wise not to edit this file manually. Use localectl(1) to\n"
                         "# instruct systemd-localed to update it.\n"
                         "Section \"InputClass\"\n"
                         "        Identifier \"system-keyboard\"\n"
                         "        MatchIsKeyboard \"on\"\n");

        assert(c);

        if (!s)
                return NULL;
        if (!append_line(&s, "        Option \"XkbLayout\" \"", c->layout, "\"\n") ||
            !append_line(&s, "        Option \"XkbModel\" \"", c->model, "\"\n") ||
            !append_line(&s, "        Option \"XkbVariant\" \"", c->variant, "\"\n") ||
            !append_line(&s, "        Option \"XkbOptions\" \"", c->options, "\"\n") ||
            !strextend(&s, "EndSection\n", NULL)) {
                free(s);
                return NULL;
        }
        return s;
}

char *xkb_config_render_env(const XkbConfig *c, const char *source) {
        char *s = NULL;

        assert(c);
        assert(source);

        if (!strextend(&s,
                       "# Written by urlboot-xkb(1) from ", source, ",\n"
                       "# read by systemd --user and Wayland compositors (libxkbcommon).\n"
                       "# Do not edit: change the keyboard with \"localectl set-x11-keymap\" or\n"
                       "# \"urlboot-xkb set\", and this file follows.\n"
                       "\n",
                       NULL))
                return NULL;
        if (!append_line(&s, "XKB_DEFAULT_LAYOUT=\"", c->layout, "\"\n") ||
            !append_line(&s, "XKB_DEFAULT_MODEL=\"", c->model, "\"\n") ||
            !append_line(&s, "XKB_DEFAULT_VARIANT=\"", c->variant, "\"\n") ||
            !append_line(&s, "XKB_DEFAULT_OPTIONS=\"", c->options, "\"\n")) {
                free(s);
                return NULL;
        }
        return s;
}

/* Appends KEY="value" (value may be empty: Debian's file always names all four). */
static bool append_assignment(char **s, const char *key, const char *value) {
        return strextend(s, key, "=\"", value ?: "", "\"\n", NULL);
}

char *xkb_config_update_debian(const char *old_text, const XkbConfig *c) {
        const char *values[4];
        bool written[4] = {};
        char *out = strdup("");
        const char *p = old_text ?: "";

        assert(c);

        values[0] = c->layout;
        values[1] = c->model;
        values[2] = c->variant;
        values[3] = c->options;

        if (!out)
                return NULL;

        /* Keep every line, but put our value in place of each XKB* assignment. */
        while (*p) {
                size_t n = strcspn(p, "\n");
                const char *line = p + strspn(p, " \t");
                int k = -1;

                for (int i = 0; i < 4; i++) {
                        size_t kl = strlen(debian_keys[i]);
                        if ((size_t) (line - p) < n && strncmp(line, debian_keys[i], kl) == 0 && line[kl] == '=')
                                k = i;
                }
                if (k >= 0 && !written[k]) {
                        if (!append_assignment(&out, debian_keys[k], values[k]))
                                goto oom;
                        written[k] = true;
                } else if (k < 0) {
                        _cleanup_free_ char *l = strndup(p, n);
                        if (!l || !strextend(&out, l, "\n", NULL))
                                goto oom;
                }
                p += n;
                p += *p == '\n';
        }
        for (int i = 0; i < 4; i++)
                if (!written[i] && !append_assignment(&out, debian_keys[i], values[i]))
                        goto oom;
        return out;
oom:
        free(out);
        return NULL;
}
