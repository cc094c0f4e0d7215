/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The [Service] keys that matter for directory quotas, interpreted as systemd does.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "string-util.h"
#include "unit-file.h"
#include "unit-settings.h"

static const char *const exec_names[_UNIT_EXEC_LIST_MAX] = {
        [UNIT_EXEC_START_PRE] = "ExecStartPre",
        [UNIT_EXEC_START_POST] = "ExecStartPost",
        [UNIT_EXEC_RELOAD] = "ExecReload",
        [UNIT_EXEC_STOP] = "ExecStop",
        [UNIT_EXEC_STOP_POST] = "ExecStopPost",
};

const char *unit_exec_list_to_string(UnitExecList l) {
        return l >= 0 && l < _UNIT_EXEC_LIST_MAX ? exec_names[l] : NULL;
}

typedef struct Reader {
        UnitSettings *settings;
        const char *name;
} Reader;

static int warn(Reader *rd, unsigned line, const char *key, const char *what, const char *value) {
        char *full;

        if (asprintf(&full, "%s:%u: %s=: Failed to parse %s, ignoring: %s", rd->name, line, key, what, value) < 0)
                return -ENOMEM;
        return strv_consume(&rd->settings->warnings, full);
}

/* "StateDirectory" + suffix, with or without "X-"; the type, or -1. */
static int match_type_key(const char *key, const char *suffix) {
        const char *k = startswith(key, "X-") ?: key;

        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++) {
                const char *rest = startswith(k, quota_dir_type_to_string(t));

                if (rest && streq(rest, suffix))
                        return t;
        }
        return -1;
}

/* Whitespace-separated words, quotes removed (directory names rarely need them). As systemd, an unbalanced
 * quote ends the assignment and an empty word is skipped. */
static int add_words(char ***list, const char *value) {
        const char *p = value;

        if (isempty(value)) {
                *list = strv_free(*list);
                return 0;
        }
        while (*(p += strspn(p, " \t\n\r"))) {
                char quote = (*p == '"' || *p == '\'') ? *p : 0;
                const char *start = p + !!quote, *end;
                int r;

                end = quote ? strchr(start, quote) : start + strcspn(start, " \t\n\r");
                if (!end)
                        return 0;
                if (end > start) {
                        r = strv_consume(list, strndup(start, end - start));
                        if (r < 0)
                                return r;
                }
                p = end + !!quote;
        }
        return 0;
}

static int on_assignment(const char *section, const char *key, const char *value, unsigned line,
                         void *userdata) {
        Reader *rd = userdata;
        UnitSettings *s = rd->settings;
        int t, r;

        if (!streq(section, "Service"))
                return 0;

        t = match_type_key(key, "Quota");
        if (t >= 0) {
                r = quota_limit_parse(value, &s->limits[t]);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        return warn(rd, line, key, "disk quota value", value);
                return 0;
        }
        t = match_type_key(key, "Accounting");
        if (t >= 0) {
                r = parse_boolean(value);
                if (r < 0)
                        return warn(rd, line, key, "boolean value", value);
                s->limits[t].accounting = r;
                return 0;
        }
        /* the directories themselves are systemd's keys, never spelt with X- */
        for (QuotaDirType d = 0; d < _QUOTA_DIR_TYPE_MAX; d++)
                if (streq(key, quota_dir_type_to_string(d)))
                        return add_words(&s->directories[d], value);

        for (UnitExecList l = 0; l < _UNIT_EXEC_LIST_MAX; l++)
                if (streq(key, exec_names[l])) {
                        if (isempty(value)) {
                                s->exec[l] = strv_free(s->exec[l]);
                                return 0;
                        }
                        return strv_extend(&s->exec[l], value);
                }
        return 0;
}

int unit_settings_add_text(UnitSettings *s, const char *name, const char *text, size_t size) {
        Reader rd = { .settings = s, .name = name };

        assert(s);
        assert(name);
        assert(text || size == 0);

        return unit_file_parse_text(text, size, on_assignment, &rd);
}

int unit_settings_add_file(UnitSettings *s, const char *path) {
        Reader rd = { .settings = s, .name = path };

        assert(s);
        assert(path);

        return unit_file_parse(path, on_assignment, &rd);
}

bool unit_settings_want_quota(const UnitSettings *s) {
        assert(s);

        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                if (s->limits[t].enforce || s->limits[t].accounting)
                        return true;
        return false;
}

void unit_settings_done(UnitSettings *s) {
        assert(s);

        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++)
                s->directories[t] = strv_free(s->directories[t]);
        for (UnitExecList l = 0; l < _UNIT_EXEC_LIST_MAX; l++)
                s->exec[l] = strv_free(s->exec[l]);
        s->warnings = strv_free(s->warnings);
}
