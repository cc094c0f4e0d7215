/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "command-output.h"
#include "fileio.h"
#include "macro.h"
#include "path-util.h"
#include "string-util.h"
#include "sysext-digest.h"
#include "sysext-images.h"

#define LIST_MAX (4UL * 1024 * 1024)
#define RELEASE_MAX (64UL * 1024)

static const char *json_string_member(json_object *o, const char *key) {
        json_object *v;

        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
                json_object_get_string(v) : NULL;
}

static int image_from_json(json_object *o, SysextImage *ret) {
        const char *name = json_string_member(o, "name"), *type = json_string_member(o, "type"),
                   *path = json_string_member(o, "path");

        if (!name || !type || !path || !path_is_absolute(path))
                return -EBADMSG;
        *ret = (SysextImage) { .name = strdup(name), .type = strdup(type), .path = strdup(path) };
        return ret->name && ret->type && ret->path ? 0 : -ENOMEM;
}

static int compare_images(const void *a, const void *b) {
        return strverscmp(((const SysextImage *) a)->name, ((const SysextImage *) b)->name);
}

void sysext_images_sort(SysextImage *items, size_t n) {
        if (n > 1)
                qsort(items, n, sizeof *items, compare_images);
}

static int compare_paths(const void *a, const void *b) {
        _cleanup_free_ char *x = NULL, *y = NULL;
        const char *pa = ((const SysextImage *) a)->path, *pb = ((const SysextImage *) b)->path;

        if (sysext_name_from_path(pa, &x) < 0 || sysext_name_from_path(pb, &y) < 0)
                return strcmp(pa, pb);
        return strverscmp(x, y);
}

void sysext_images_sort_paths(SysextImage *items, size_t n) {
        if (n > 1)
                qsort(items, n, sizeof *items, compare_paths);
}

int sysext_images_list(const char *sysext, const char *root, SysextImages *ret) {
        _cleanup_free_ char *root_arg = NULL, *out = NULL;
        char *argv[] = { (char *) sysext, (char *) "list", (char *) "--json=short", (char *) "--no-pager", NULL, NULL };
        SysextImages images = {};
        json_object *list;
        size_t n;
        int r;

        assert(ret);
        if (root && asprintf(&root_arg, "--root=%s", root) < 0)
                return -ENOMEM;
        argv[4] = root_arg;
        r = command_output(argv, LIST_MAX, false, &out, NULL, NULL);
        if (r < 0)
                return r;
        list = json_tokener_parse(out);
        if (!list || !json_object_is_type(list, json_type_array)) {
                json_object_put(list);
                return -EBADMSG;
        }
        n = json_object_array_length(list);
        images.items = calloc(n + 1, sizeof *images.items);
        r = images.items ? 0 : -ENOMEM;
        for (size_t i = 0; r >= 0 && i < n; i++) {
                r = image_from_json(json_object_array_get_idx(list, i), &images.items[i]);
                images.n = i + 1;
        }
        json_object_put(list);
        if (r < 0) {
                sysext_images_done(&images);
                return r;
        }
        sysext_images_sort(images.items, images.n);
        *ret = images;
        return 0;
}

/* DIR/usr/lib/extension-release.d/extension-release.NAME */
static int release_of_directory(SysextImage *img) {
        _cleanup_free_ char *path = NULL, *text = NULL;
        size_t size;
        int r;

        if (asprintf(&path, "%s/usr/lib/extension-release.d/extension-release.%s", img->path, img->name) < 0)
                return -ENOMEM;
        r = read_full_file(path, RELEASE_MAX, &text, &size);
        if (r == -ENOENT)
                return 0;
        return r < 0 ? r : release_fields_parse(text, size, &img->release);
}

/* One "KEY=VALUE" field into img->release. */
static int release_add(SysextImage *img, const char *key, const char *value) {
        char *f = NULL;

        if (key ? asprintf(&f, "%s=%s", key, value) < 0 : !(f = strdup(value)))
                return -ENOMEM;
        return strv_consume(&img->release, f);
}

/* "extensionRelease" of systemd-dissect's JSON: an array of "KEY=VALUE" strings (252), or an object of
 * strings (later versions). */
static int release_of_raw(SysextImage *img, const char *dissect) {
        char *argv[] = { (char *) dissect, (char *) "--json=short", (char *) "--no-pager", img->path, NULL };
        _cleanup_free_ char *out = NULL;
        json_object *o, *release;
        int r;

        r = command_output(argv, LIST_MAX, true, &out, NULL, NULL);
        if (r < 0)
                return r;
        o = json_tokener_parse(out);
        if (!o || !json_object_is_type(o, json_type_object)) {
                json_object_put(o);
                return -EBADMSG;
        }
        if (!json_object_object_get_ex(o, "extensionRelease", &release))
                release = NULL;
        if (json_object_is_type(release, json_type_array))
                for (size_t i = 0; r >= 0 && i < json_object_array_length(release); i++) {
                        json_object *v = json_object_array_get_idx(release, i);
                        if (json_object_is_type(v, json_type_string) && strchr(json_object_get_string(v), '='))
                                r = release_add(img, NULL, json_object_get_string(v));
                }
        else if (json_object_is_type(release, json_type_object)) {
                json_object_object_foreach(release, key, value) {
                        if (r >= 0 && json_object_is_type(value, json_type_string))
                                r = release_add(img, key, json_object_get_string(value));
                }
        }
        json_object_put(o);
        return r;
}

int sysext_image_read_release(SysextImage *img, const char *dissect) {
        assert(img);

        if (streq(img->type, "directory") || streq(img->type, "subvolume"))
                return release_of_directory(img);
        return release_of_raw(img, dissect);
}

void sysext_images_done(SysextImages *images) {
        for (size_t i = 0; i < images->n; i++) {
                free(images->items[i].name);
                free(images->items[i].type);
                free(images->items[i].path);
                strv_free(images->items[i].release);
        }
        free(images->items);
        *images = (SysextImages) {};
}

int host_release_read(const char *root, char ***ret) {
        static const char *const candidates[] = { "etc/os-release", "usr/lib/os-release" };
        int r = -ENOENT;

        for (size_t i = 0; i < ELEMENTSOF(candidates) && r == -ENOENT; i++) {
                _cleanup_free_ char *path = path_join(root ?: "/", candidates[i]), *text = NULL;
                size_t size;
                if (!path)
                        return -ENOMEM;
                r = read_full_file(path, RELEASE_MAX, &text, &size);
                if (r >= 0)
                        return release_fields_parse(text, size, ret);
        }
        return r;
}
