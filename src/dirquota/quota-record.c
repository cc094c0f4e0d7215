/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The project IDs urlboot-dirquota gave a unit.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "mkdir.h"
#include "path-util.h"
#include "project-id.h"
#include "quota-record.h"
#include "string-util.h"

/* A few lines; anything larger is not ours. */
#define QUOTA_RECORD_MAX 4096

static int record_line(const char *line, size_t len, QuotaRecord *r) {
        for (QuotaDirType t = 0; t < _QUOTA_DIR_TYPE_MAX; t++) {
                const char *name = quota_dir_type_to_string(t);
                size_t n = strlen(name);
                char digits[16];
                uint64_t v = 0;

                if (len <= n + 1 || strncmp(line, name, n) != 0 || line[n] != '=')
                        continue;
                if (len - n - 1 >= sizeof(digits))
                        return 0;
                memcpy(digits, line + n + 1, len - n - 1);
                digits[len - n - 1] = 0;
                for (const char *p = digits; *p; p++) {
                        if (*p < '0' || *p > '9')
                                return 0;
                        v = v * 10 + (uint64_t) (*p - '0');
                }
                if (v <= UINT32_MAX && project_id_in_range((uint32_t) v))
                        r->ids[t] = (uint32_t) v;
                return 0;
        }
        return 0;
}

void quota_record_parse(const char *text, QuotaRecord *ret) {
        assert(text);
        assert(ret);

        *ret = (QuotaRecord) {};
        while (*text) {
                size_t len = strcspn(text, "\n");

                (void) record_line(text, len, ret);
                text += len;
                text += *text == '\n';
        }
}

char *quota_record_format(const QuotaRecord *r) {
        char *text = strdup("");

        assert(r);

        for (QuotaDirType t = 0; text && t < _QUOTA_DIR_TYPE_MAX; t++) {
                char line[64];

                if (r->ids[t] == 0)
                        continue;
                (void) snprintf(line, sizeof(line), "%s=%" PRIu32 "\n", quota_dir_type_to_string(t), r->ids[t]);
                if (!strextend(&text, line, NULL))
                        return mfree(text);
        }
        return text;
}

static int record_path(const char *dir, const char *unit, char **ret) {
        /* the manager's unit names: never a path, never hidden */
        if (isempty(unit) || strchr(unit, '/') || unit[0] == '.')
                return -EINVAL;
        *ret = path_join(dir, unit);
        return *ret ? 0 : -ENOMEM;
}

int quota_record_load(const char *dir, const char *unit, QuotaRecord *ret) {
        _cleanup_free_ char *path = NULL, *text = NULL;
        int r;

        assert(dir);
        assert(ret);
        assert(unit);

        *ret = (QuotaRecord) {};
        r = record_path(dir, unit, &path);
        if (r < 0)
                return r;
        r = read_full_file(path, QUOTA_RECORD_MAX, &text, NULL);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return r;
        quota_record_parse(text, ret);
        return 0;
}

int quota_record_save(const char *dir, const char *unit, const QuotaRecord *rec) {
        _cleanup_free_ char *path = NULL, *text = NULL;
        int r;

        assert(dir);
        assert(rec);
        assert(unit);

        r = record_path(dir, unit, &path);
        if (r < 0)
                return r;
        text = quota_record_format(rec);
        if (!text)
                return -ENOMEM;
        if (isempty(text))
                return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
        r = mkdir_p(dir, 0700);
        if (r < 0)
                return r;
        return write_file_atomic(path, text, strlen(text), 0600);
}
