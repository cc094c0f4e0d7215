/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * RefuseRecordTypes= from resolved.conf and its drop-ins, read as systemd v258's resolved reads it.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf-syntax.h"
#include "dns-record-type.h"
#include "fileio.h"
#include "macro.h"
#include "path-util.h"
#include "refuse-config.h"
#include "string-util.h"

/* systemd reads lines of any number; a larger file than this is not a configuration file. */
#define CONF_FILE_MAX (64U * 1024U * 1024U)

static const char *const conf_dirs[] = RESOLVED_CONF_DIRS;

int refuse_record_types_apply(RefuseSet *set, const char *value, void (*warn)(const char *message, void *userdata),
                              void *userdata) {
        assert(set);

        if (isempty(value)) {
                refuse_set_clear(set);
                return 0;
        }

        for (const char *p = value;;) {
                _cleanup_free_ char *word = NULL, *m = NULL;
                int r, type;

                r = conf_extract_word(&p, &word);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        /* The rest of the value is dropped; what came before stays. */
                        if (warn && asprintf(&m, "Failed to parse RefuseRecordTypes=%s, ignoring assignment: %s",
                                             value, strerror(-r)) >= 0)
                                warn(m, userdata);
                        return 0;
                }
                if (r == 0)
                        return 0;

                type = dns_record_type_from_string(word);
                if (type < 0) {
                        if (warn && asprintf(&m, "Invalid DNS record type, ignoring: %s", word) >= 0)
                                warn(m, userdata);
                        continue;
                }
                refuse_set_add(set, (uint16_t) type);
        }
}

typedef struct FileContext {
        RefuseConfig *config;
        const char *name;
        unsigned line;
        int error;
} FileContext;

static void add_diagnostic(FileContext *f, unsigned line, const char *message) {
        char *m;

        if (asprintf(&m, "%s:%u: %s", f->name, line, message) < 0) {
                f->error = -ENOMEM;
                return;
        }
        if (strv_consume(&f->config->diagnostics, m) < 0)
                f->error = -ENOMEM;
}

static void on_value_warning(const char *message, void *userdata) {
        FileContext *f = userdata;

        add_diagnostic(f, f->line, message);
}

static void on_assignment(const char *section, const char *key, const char *value, unsigned line, void *userdata) {
        FileContext *f = userdata;

        /* Every other key of [Resolve] is resolved's business, not ours. */
        if (!streq(key, "RefuseRecordTypes"))
                return;
        f->line = line;
        if (refuse_record_types_apply(&f->config->types, value, on_value_warning, f) < 0)
                f->error = -ENOMEM;
}

static void on_diagnostic(unsigned line, const char *message, void *userdata) {
        add_diagnostic(userdata, line, message);
}

int refuse_config_parse_text(RefuseConfig *c, const char *name, const char *text, size_t size) {
        static const char *const sections[] = { "Resolve", NULL };
        static const ConfSyntaxHandler handler = {
                .assignment = on_assignment,
                .diagnostic = on_diagnostic,
        };
        FileContext f = { .config = c, .name = name };
        int r;

        assert(c);
        assert(name);
        assert(text || size == 0);

        r = conf_syntax_parse(text, size, sections, &handler, &f);
        if (f.error < 0)
                return f.error;
        return r;
}

/* Reads and parses one open file; a failure stops the whole reading, as in resolved. */
static int parse_file(RefuseConfig *c, const char *path, int fd) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        int r;

        r = strv_extend(&c->files, path);
        if (r < 0)
                return r;
        r = read_full_fd(fd, CONF_FILE_MAX, &text, &size);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                char *m;

                if (asprintf(&m, "%s:0: Error while reading configuration file: %s", path, strerror(-r)) < 0 ||
                    strv_consume(&c->diagnostics, m) < 0)
                        return -ENOMEM;
                return r;
        }
        return refuse_config_parse_text(c, path, text ?: "", size);
}

typedef struct DropIn {
        char *name;
        char *path;
        int fd;
        struct stat st;
} DropIn;

typedef struct DropInList {
        DropIn *items;
        size_t n;
} DropInList;

static void dropin_list_done(DropInList *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->items[i].name);
                free(l->items[i].path);
                if (l->items[i].fd >= 0)
                        (void) close(l->items[i].fd);
        }
        free(l->items);
}

static bool dropin_list_has(const DropInList *l, const char *name) {
        for (size_t i = 0; i < l->n; i++)
                if (streq(l->items[i].name, name))
                        return true;
        return false;
}

static int dropin_list_add(DropInList *l, const char *dir, const char *name) {
        DropIn *items = realloc(l->items, (l->n + 1) * sizeof(DropIn));

        if (!items)
                return -ENOMEM;
        l->items = items;
        items[l->n] = (DropIn) { .name = strdup(name), .path = path_join(dir, name), .fd = -1 };
        if (!items[l->n].name || !items[l->n].path) {
                free(items[l->n].name);
                free(items[l->n].path);
                return -ENOMEM;
        }
        l->n++;
        return 0;
}

static int compare_dropins(const void *a, const void *b) {
        return strcmp(((const DropIn *) a)->name, ((const DropIn *) b)->name);
}

static char *root_join(const char *root, const char *dir, const char *tail) {
        _cleanup_free_ char *d = path_join(dir, tail);

        if (!d || isempty(root) || streq(root, "/"))
                return TAKE_PTR(d);
        return path_join(root, d);
}

/* The drop-in names: the first directory that has a name wins, hidden files never count. */
static int collect_dropins(const char *root, DropInList *l) {
        for (size_t i = 0; i < ELEMENTSOF(conf_dirs); i++) {
                _cleanup_free_ char *dir = root_join(root, conf_dirs[i], "systemd/resolved.conf.d");
                DIR *d;
                struct dirent *de;
                int r = 0;

                if (!dir)
                        return -ENOMEM;
                d = opendir(dir);
                if (!d)
                        continue;
                while ((de = readdir(d))) {
                        if (de->d_name[0] == '.' || !endswith(de->d_name, ".conf") ||
                            dropin_list_has(l, de->d_name))
                                continue;
                        r = dropin_list_add(l, dir, de->d_name);
                        if (r < 0)
                                break;
                }
                closedir(d);
                if (r < 0)
                        return r;
        }
        if (l->n > 0)
                qsort(l->items, l->n, sizeof(DropIn), compare_dropins);
        return 0;
}

static void record_error(RefuseConfig *c, int error, const char *path) {
        c->error = error;
        free(c->error_file);
        c->error_file = strdup(path);
}

/* Opens all drop-ins first, as resolved does: one it cannot open (other than a missing one) means
 * nothing at all is read. */
static int open_dropins(RefuseConfig *c, DropInList *l) {
        for (size_t i = 0; i < l->n; i++) {
                DropIn *d = &l->items[i];

                d->fd = open(d->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                if (d->fd < 0) {
                        if (errno == ENOENT)
                                continue;
                        record_error(c, -errno, d->path);
                        return 0;
                }
                if (fstat(d->fd, &d->st) < 0) {
                        record_error(c, -errno, d->path);
                        return 0;
                }
        }
        return 1;
}

static bool is_a_dropin(const DropInList *l, const struct stat *st) {
        for (size_t i = 0; i < l->n; i++)
                if (l->items[i].fd >= 0 && l->items[i].st.st_dev == st->st_dev && l->items[i].st.st_ino == st->st_ino)
                        return true;
        return false;
}

/* The first main file that exists, unless it is one of the drop-ins (then it is read as such). */
static int parse_main_file(RefuseConfig *c, const char *root, const DropInList *l) {
        for (size_t i = 0; i < ELEMENTSOF(conf_dirs); i++) {
                _cleanup_free_ char *path = root_join(root, conf_dirs[i], "systemd/resolved.conf");
                _cleanup_close_ int fd = -1;
                struct stat st;
                int r;

                if (!path)
                        return -ENOMEM;
                fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                if (fd < 0) {
                        if (errno == ENOENT)
                                continue;
                        record_error(c, -errno, path);
                        return 0;
                }
                if (fstat(fd, &st) < 0) {
                        record_error(c, -errno, path);
                        return 0;
                }
                if (is_a_dropin(l, &st))
                        return 1;
                r = parse_file(c, path, fd);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        record_error(c, r, path);
                        return 0;
                }
                return 1;
        }
        return 1;
}

int refuse_config_load(const char *root, RefuseConfig *ret) {
        _cleanup_(dropin_list_done) DropInList l = {};
        RefuseConfig c = {};
        int r;

        assert(ret);

        r = collect_dropins(root, &l);
        if (r < 0)
                goto fail;
        r = open_dropins(&c, &l);
        if (r > 0)
                r = parse_main_file(&c, root, &l);
        if (r < 0)
                goto fail;

        for (size_t i = 0; r > 0 && i < l.n; i++) {
                if (l.items[i].fd < 0)
                        continue;
                r = parse_file(&c, l.items[i].path, l.items[i].fd);
                if (r == -ENOMEM)
                        goto fail;
                if (r < 0) {
                        record_error(&c, r, l.items[i].path);
                        break;
                }
                r = 1;
        }

        *ret = c;
        return 0;

fail:
        refuse_config_done(&c);
        return r;
}

void refuse_config_done(RefuseConfig *c) {
        assert(c);

        c->files = strv_free(c->files);
        c->diagnostics = strv_free(c->diagnostics);
        c->error_file = mfree(c->error_file);
}
