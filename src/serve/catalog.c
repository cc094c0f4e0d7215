/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What is served.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "error-buf.h"
#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "mkdir.h"
#include "proc-cmdline.h"
#include "pull-expression.h"
#include "string-util.h"

static int add(Catalog *c, const char *path, const char *file, const char *what, const char *sha256,
               const char *not_ready) {
        Resource *n, r;
        int e;

        if (catalog_find(c, path)) {
                log_warning("Not serving %s at %s: %s is served there already.", what, path, catalog_find(c, path)->what);
                return 0;
        }
        e = resource_open(&r, path, file, what, sha256);
        if (e < 0)
                return log_warning_errno(e, "Not serving %s: cannot open %s: %m", what, file);
        n = realloc(c->items, (c->n + 1) * sizeof *n);
        if (!n) {
                resource_done(&r);
                return log_oom();
        }
        c->items = n;
        r.not_ready = not_ready;
        c->items[c->n++] = r;
        log_info("Serving %s at %s (%s, %llu bytes)%s%s.", what, path, file, (unsigned long long) r.size,
                 not_ready ? ": not yet, " : "", not_ready ?: "");
        return 1;
}

/* The booted UKI, fetched once into the cache and kept only when its digest is what booted. */
static void add_uki(Catalog *c, const CatalogOptions *o, const BootOrigin *origin) {
        _cleanup_free_ char *path = NULL, *file = NULL;
        char error[ERROR_BUF_MIN * 2];
        int r;

        if (!origin->stub_url || url_path(origin->stub_url, &path) < 0) {
                log_info("This boot has no StubDeviceURL (not booted from HTTP by urlboot's stub): no UKI to serve.");
                return;
        }
        if (!origin->uki_sha256) {
                log_notice("Not serving the UKI %s: no boot manager recorded its SHA-256 (UrlbootImageSHA256; the "
                           "firmware started it directly?), so nothing says which bytes booted.", origin->stub_url);
                return;
        }
        if (asprintf(&file, "%s/uki-%s.efi", o->cache_dir, origin->uki_sha256) < 0)
                return (void) log_oom();
        if (access(file, F_OK) < 0) {
                r = mkdir_p(o->cache_dir, 0755);
                if (r >= 0)
                        r = fetch_verified(origin->stub_url, origin->uki_sha256, file, error, sizeof error);
                if (r < 0) {
                        log_warning("Not serving the UKI: %s", r == -EBADMSG || error[0] ? error : strerror(-r));
                        return;
                }
        }
        (void) add(c, path, file, "the booted UKI", origin->uki_sha256, NULL);
}

static void add_boot_manager(Catalog *c, const CatalogOptions *o, const BootOrigin *origin) {
        _cleanup_free_ char *path = NULL;

        if (!o->boot_manager)
                return;
        if (!origin->loader_url || url_path(origin->loader_url, &path) < 0) {
                log_notice("Not serving the boot manager %s: this boot has no LoaderDeviceURL to serve it at.",
                           o->boot_manager);
                return;
        }
        if (origin->stub_url && streq(origin->loader_url, origin->stub_url)) {
                log_notice("Not serving the boot manager %s: the firmware started the UKI directly.", o->boot_manager);
                return;
        }
        (void) add(c, path, o->boot_manager, "the boot manager", NULL, NULL);
}

/* A lazy disk's copy is served once local: before that it has holes where the network still answers. */
static const char *lazy_not_ready(const CatalogOptions *o, const char *local) {
        _cleanup_free_ char *path = NULL, *text = NULL;

        if (asprintf(&path, "%s/%s.state", o->lazy_dir, local) < 0)
                return "out of memory";
        if (read_full_file(path, 64 * 1024, &text, NULL) < 0)
                return "urlboot-lazy's state cannot be read";
        return strstr(text, "\nPHASE=local\n") || startswith(text, "PHASE=local\n") ? NULL :
                "its background copy is not complete";
}

/* The pull expressions the initrd acted on: rd.* words too (they are skipped outside the initrd otherwise). */
static int collect_expressions(char ***ret) {
        static const char *const keys[] = { "rd.systemd.pull", "rd.urlboot.pull", "systemd.pull", "urlboot.pull" };
        _cleanup_free_ char *line = NULL;
        _cleanup_strv_free_ char **words = NULL;
        char **l = NULL;
        int r;

        r = proc_cmdline(&line);
        if (r >= 0)
                r = cmdline_split(line, &words);
        if (r < 0)
                return r;
        STRV_FOREACH(w, words) {
                const char *eq = strchr(*w, '=');
                _cleanup_free_ char *key = eq ? strndup(*w, (size_t) (eq - *w)) : NULL;

                for (size_t i = 0; key && i < ELEMENTSOF(keys); i++)
                        if (proc_cmdline_key_streq(key, keys[i]) && strv_extend(&l, eq + 1) < 0) {
                                strv_free(l);
                                return -ENOMEM;
                        }
        }
        *ret = l;
        return 0;
}

static void add_image(Catalog *c, const CatalogOptions *o, const BootOrigin *origin, const char *expression) {
        _cleanup_pull_expression_ PullExpression *e = NULL;
        _cleanup_free_ char *path = NULL, *kept = NULL, *what = NULL;
        char error[ERROR_BUF_MIN];

        if (pull_expression_parse(expression, &e, error, sizeof error) < 0 ||
            pull_expression_resolve(e, origin->stub_url, true, error, sizeof error) < 0 || !e->url || !e->local)
                return;         /* the import generator said why at boot */
        if (url_path(e->url, &path) < 0)
                return;
        if (asprintf(&what, "the image %s", e->local) < 0 || asprintf(&kept, "%s/%s", o->keep_dir, e->local) < 0)
                return (void) log_oom();
        if (access(kept, F_OK) >= 0) {          /* the file as downloaded: the pins on the command line hold */
                (void) add(c, path, kept, what, NULL, NULL);
                return;
        }
        if (e->lazy && e->type == IMAGE_RAW) {
                _cleanup_free_ char *image = NULL;

                if (asprintf(&image, "%s/%s.raw", o->machines_dir, e->local) < 0)
                        return (void) log_oom();
                (void) add(c, path, image, what, NULL, lazy_not_ready(o, e->local));
                return;
        }
        log_notice("Not serving %s: urlboot-pull did not keep it as downloaded (add 'serve' to its pull expression), "
                   "and what it unpacked would not match the pins of %s.", what, e->url);
}

static int add_disk(Catalog *c, const char *spec) {
        _cleanup_free_ char *file = NULL, *path = NULL, *what = NULL;
        const char *eq = strchr(spec, '=');
        int r;

        file = eq ? strndup(spec, (size_t) (eq - spec)) : strdup(spec);
        if (!file)
                return log_oom();
        if (eq && (eq[1] != '/' || strstr(eq + 1, "/../") || endswith(eq + 1, "/..")))
                return log_error_errno(-EINVAL, "--disk=%s: the URL path after '=' must start with '/' and hold no '..'.",
                                       spec);
        if (eq)
                path = strdup(eq + 1);
        else {
                const char *base = strrchr(file, '/');

                r = asprintf(&path, "/disk/%s", base ? base + 1 : file);
                if (r < 0)
                        path = NULL;
        }
        if (!path || asprintf(&what, "the disk %s", file) < 0)
                return log_oom();
        r = add(c, path, file, what, NULL, NULL);
        if (r == 0)
                return -EEXIST;
        return r < 0 ? log_error_errno(r, "--disk=%s cannot be served.", spec) : 0;
}

int catalog_build(Catalog *c, const CatalogOptions *o, const BootOrigin *origin) {
        _cleanup_strv_free_ char **expressions = NULL;
        int r;

        assert(c);
        assert(o);
        assert(origin);

        *c = (Catalog) {};
        if (o->boot) {
                add_uki(c, o, origin);
                add_boot_manager(c, o, origin);
                r = collect_expressions(&expressions);
                if (r < 0)
                        log_warning_errno(r, "Cannot read the kernel command line: %m");
                STRV_FOREACH(s, expressions)
                        add_image(c, o, origin, *s);
        }
        STRV_FOREACH(d, o->disks) {
                r = add_disk(c, *d);
                if (r < 0)
                        return r;
        }
        return (int) c->n;
}

Resource *catalog_find(Catalog *c, const char *path) {
        assert(c);
        assert(path);

        for (size_t i = 0; i < c->n; i++)
                if (streq(c->items[i].path, path))
                        return &c->items[i];
        return NULL;
}

void catalog_refresh(Catalog *c, const CatalogOptions *o) {
        assert(c);
        assert(o);

        for (size_t i = 0; i < c->n; i++) {
                Resource *r = &c->items[i];
                _cleanup_free_ char *local = NULL;
                const char *base;

                if (!__atomic_load_n(&r->not_ready, __ATOMIC_ACQUIRE))
                        continue;
                base = strrchr(r->file, '/');
                local = strdup(base ? base + 1 : r->file);
                if (!local)
                        return;
                if (endswith(local, ".raw"))
                        local[strlen(local) - 4] = 0;
                if (lazy_not_ready(o, local))
                        continue;
                /* the copy is complete: its size and validators are final now (no answer reads them before) */
                if (resource_reload(r) < 0)
                        continue;
                __atomic_store_n(&r->not_ready, NULL, __ATOMIC_RELEASE);
                log_info("Serving %s at %s now: its copy is complete.", r->what, r->path);
        }
}

void catalog_done(Catalog *c) {
        assert(c);

        for (size_t i = 0; i < c->n; i++)
                resource_done(&c->items[i]);
        free(c->items);
        *c = (Catalog) {};
}
