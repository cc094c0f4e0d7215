/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The state file of a lazy disk.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "lazy-state.h"
#include "macro.h"
#include "string-util.h"

static const char *const phase_names[_LAZY_PHASE_MAX] = {
        [LAZY_STARTING] = "starting",
        [LAZY_REMOTE] = "remote",
        [LAZY_COPYING] = "copying",
        [LAZY_LOCAL] = "local",
        [LAZY_FAILED] = "failed",
};

const char *lazy_phase_to_string(LazyPhase p) {
        return p >= 0 && p < _LAZY_PHASE_MAX ? phase_names[p] : NULL;
}

LazyPhase lazy_phase_from_string(const char *s) {
        for (int i = 0; i < _LAZY_PHASE_MAX; i++)
                if (streq_ptr(s, phase_names[i]))
                        return (LazyPhase) i;
        return _LAZY_PHASE_INVALID;
}

void lazy_state_done(LazyState *s) {
        assert(s);

        free(s->name);
        free(s->url);
        free(s->image);
        free(s->device);
        free(s->mapper);
        free(s->nbd);
        free(s->local_loop);
        free(s->verity);
        *s = (LazyState) {};
}

typedef enum FieldKind { FIELD_STRING, FIELD_U64, FIELD_INT, FIELD_PHASE } FieldKind;

typedef struct Field {
        const char *key;
        FieldKind kind;
        size_t offset;
} Field;

#define STR(k, m) { k, FIELD_STRING, offsetof(LazyState, m) }
#define U64(k, m) { k, FIELD_U64, offsetof(LazyState, m) }
#define INT(k, m) { k, FIELD_INT, offsetof(LazyState, m) }

static const Field fields[] = {
        STR("NAME", name), STR("URL", url), STR("IMAGE", image), STR("DEVICE", device), STR("MAPPER", mapper),
        STR("NBD", nbd), STR("LOCAL_LOOP", local_loop), STR("VERITY", verity), { "PHASE", FIELD_PHASE, offsetof(LazyState, phase) },
        U64("SIZE", size), U64("COPIED", copied), U64("ZERO", zero), U64("SKIPPED", skipped), U64("STORED", stored),
        U64("FETCHED", fetched),
        U64("FETCHED_AT_ROOT", fetched_at_root), U64("STARTED_USEC", started_usec), U64("READY_USEC", ready_usec),
        U64("ROOT_USEC", root_usec), U64("COPY_USEC", copy_usec), U64("LOCAL_USEC", local_usec), INT("PID", pid), INT("NBDKIT_PID", nbdkit_pid),
};

/* KEY=VALUE lines, one per field. */
static int state_format(const LazyState *s, char **ret_text, size_t *ret_size) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        FILE *f;
        int r;

        f = open_memstream(&text, &size);
        if (!f)
                return -ENOMEM;
        for (size_t i = 0; i < ELEMENTSOF(fields); i++) {
                const void *p = (const uint8_t *) s + fields[i].offset;

                switch (fields[i].kind) {
                case FIELD_STRING:
                        /* One value per line: a value with a line end would be two keys. */
                        if (*(char *const *) p && !string_has_cc(*(char *const *) p))
                                fprintf(f, "%s=%s\n", fields[i].key, *(char *const *) p);
                        break;
                case FIELD_U64:
                        fprintf(f, "%s=%llu\n", fields[i].key, (unsigned long long) *(const uint64_t *) p);
                        break;
                case FIELD_INT:
                        fprintf(f, "%s=%d\n", fields[i].key, *(const int *) p);
                        break;
                case FIELD_PHASE:
                        fprintf(f, "%s=%s\n", fields[i].key, lazy_phase_to_string(*(const LazyPhase *) p) ?: "failed");
                        break;
                }
        }
        r = fflush(f) == 0 && !ferror(f) ? 0 : -ENOMEM;
        fclose(f);
        if (r < 0)
                return r;
        *ret_text = TAKE_PTR(text);
        *ret_size = size;
        return 0;
}

int lazy_state_write(const char *path, const LazyState *s) {
        _cleanup_free_ char *text = NULL;
        size_t size;
        int r = state_format(s, &text, &size);

        assert(path);
        assert(s);

        return r < 0 ? r : write_file_atomic(path, text, size, 0644);
}

int lazy_state_write_at(int dir_fd, const char *name, const LazyState *s) {
        _cleanup_free_ char *text = NULL;
        size_t size;
        int r = state_format(s, &text, &size);

        assert(name);
        assert(s);

        return r < 0 ? r : write_file_atomic_at(dir_fd, name, text, size, 0644);
}

static int set_field(LazyState *s, const Field *fd, const char *v) {
        void *p = (uint8_t *) s + fd->offset;
        char *end;

        switch (fd->kind) {
        case FIELD_STRING: {
                char *c = strdup(v);
                if (!c)
                        return -ENOMEM;
                free(*(char **) p);
                *(char **) p = c;
                return 0;
        }
        case FIELD_U64: {
                unsigned long long u;
                errno = 0;
                u = strtoull(v, &end, 10);
                if (errno || *end || !*v || *v == '-')
                        return -EBADMSG;
                *(uint64_t *) p = u;
                return 0;
        }
        case FIELD_INT: {
                long l;
                errno = 0;
                l = strtol(v, &end, 10);
                if (errno || *end || !*v || l < -1 || l > INT32_MAX)
                        return -EBADMSG;
                *(int *) p = (int) l;
                return 0;
        }
        case FIELD_PHASE: {
                LazyPhase ph = lazy_phase_from_string(v);
                if (ph < 0)
                        return -EBADMSG;
                *(LazyPhase *) p = ph;
                return 0;
        }
        }
        return -EINVAL;
}

int lazy_state_read(const char *path, LazyState *ret) {
        _cleanup_free_ char *text = NULL;
        LazyState s = { .phase = LAZY_STARTING };
        char *line, *save = NULL;
        int r;

        assert(path);
        assert(ret);

        r = read_full_file(path, 64 * 1024, &text, NULL);
        if (r < 0)
                return r;
        for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *eq = strchr(line, '=');

                if (!eq)
                        continue;
                *eq = 0;
                for (size_t i = 0; i < ELEMENTSOF(fields); i++)
                        if (streq(line, fields[i].key)) {
                                r = set_field(&s, fields + i, eq + 1);
                                if (r < 0) {
                                        lazy_state_done(&s);
                                        return r;
                                }
                        }
        }
        if (!s.name) {
                lazy_state_done(&s);
                return -EBADMSG;
        }
        *ret = s;
        return 0;
}
