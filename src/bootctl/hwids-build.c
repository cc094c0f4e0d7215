/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <assert.h>
#include <errno.h>
#include <ftw.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chid.h"
#include "hwids.h"
#include "hwids-build.h"
#include "log.h"
#include "macro.h"
#include "string-util.h"

typedef struct Device {
        unsigned type;
        char *name, *compatible;
        Chid *chids;
        size_t n_chids;
} Device;

typedef struct Devices {
        Device *devices;
        size_t n;
} Devices;

static void devices_done(Devices *d) {
        for (size_t i = 0; i < d->n; i++) {
                free(d->devices[i].name);
                free(d->devices[i].compatible);
                free(d->devices[i].chids);
        }
        free(d->devices);
}

/* nftw() passes no userdata: the files found so far */
static char **found_files;

static int collect_json(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
        if (flag == FTW_F && endswith(path, ".json") && strv_extend(&found_files, path) < 0)
                return -ENOMEM;
        return 0;
}

static int compare_paths(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* A string member, or NULL when absent or not a string. */
static const char *member(json_object *o, const char *key) {
        json_object *v;

        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
                       ? json_object_get_string(v)
                       : NULL;
}

static Device *device_find_or_add(Devices *d, unsigned type, const char *name, const char *compatible) {
        Device *m;

        for (size_t i = 0; i < d->n; i++)
                if (d->devices[i].type == type && streq(d->devices[i].name, name) &&
                    streq(d->devices[i].compatible, compatible))
                        return &d->devices[i];
        m = reallocarray(d->devices, d->n + 1, sizeof *m);
        if (!m)
                return NULL;
        d->devices = m;
        m = &d->devices[d->n];
        *m = (Device) { .type = type, .name = strdup(name), .compatible = strdup(compatible) };
        if (!m->name || !m->compatible) {
                free(m->name);
                free(m->compatible);
                return NULL;
        }
        d->n++;
        return m;
}

static int add_chids(Device *dev, json_object *list, const char *file) {
        size_t n = json_object_array_length(list);
        Chid *c = reallocarray(dev->chids, dev->n_chids + n + 1, sizeof *c);

        if (!c)
                return log_oom();
        dev->chids = c;
        for (size_t i = 0; i < n; i++) {
                json_object *v = json_object_array_get_idx(list, i);
                const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
                Chid one;

                if (!s || chid_from_string(s, &one) < 0)
                        return log_error_errno(EINVAL, "%s: \"hwids\" entry %zu is not a CHID (8-4-4-4-12 hex digits).",
                                               file, i);
                bool known = false;
                for (size_t k = 0; k < dev->n_chids; k++)
                        known = known || memcmp(dev->chids[k].bytes, one.bytes, CHID_SIZE) == 0;
                if (!known)
                        dev->chids[dev->n_chids++] = one;
        }
        return 0;
}

static int read_description(const char *file, Devices *d) {
        json_object *o = json_object_from_file(file), *list;
        const char *type, *name, *compatible, *fwid;
        Device *dev;
        int r;

        if (!o || !json_object_is_type(o, json_type_object)) {
                json_object_put(o);
                return log_error_errno(EINVAL, "%s: not a JSON object (a device description for --hwids=).", file);
        }
        type = member(o, "type");
        name = member(o, "name");
        compatible = member(o, "compatible");
        fwid = member(o, "fwid");
        r = -EINVAL;
        if (!type || !name || !json_object_object_get_ex(o, "hwids", &list) ||
            !json_object_is_type(list, json_type_array))
                log_error("%s: a device description needs \"type\", \"name\" and \"hwids\" (a list of CHIDs).", file);
        else if (!streq(type, "devicetree") && !streq(type, "uefi-fw"))
                log_error("%s: \"type\" is \"devicetree\" or \"uefi-fw\", not \"%s\".", file, type);
        else if (streq(type, "devicetree") ? !compatible || fwid : !fwid || compatible)
                log_error("%s: a \"%s\" description has \"%s\" (and not \"%s\").", file, type,
                          streq(type, "devicetree") ? "compatible" : "fwid",
                          streq(type, "devicetree") ? "fwid" : "compatible");
        else {
                dev = device_find_or_add(d, streq(type, "devicetree") ? HWIDS_DEVICETREE : HWIDS_UEFI_FW, name,
                                         compatible ?: fwid);
                r = dev ? add_chids(dev, list, file) : log_oom();
        }
        json_object_put(o);
        return r;
}

/* A CHID's order is its text's: the UUID's bytes, big-endian (Data1..3 are stored little-endian). */
static int compare_chids(const void *a, const void *b) {
        char x[37], y[37];

        chid_to_string(a, x);
        chid_to_string(b, y);
        return strcmp(x, y);
}

static int compare_strings(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

static uint32_t string_offset(char **strings, size_t base, const char *s) {
        size_t off = base;

        for (char **p = strings; *p; p++) {
                if (streq(*p, s))
                        return (uint32_t) off;
                off += strlen(*p) + 1;
        }
        abort();        /* every name and compatible is in strings */
}

static void put_le32(uint8_t *p, uint32_t v) {
        for (size_t i = 0; i < 4; i++)
                p[i] = (uint8_t) (v >> (8 * i));
}

static int write_section(Devices *d, void **ret, size_t *ret_size) {
        _cleanup_strv_free_ char **strings = NULL;
        size_t n_entries = 0, size, o;
        uint8_t *s;

        for (size_t i = 0; i < d->n; i++) {
                qsort(d->devices[i].chids, d->devices[i].n_chids, sizeof(Chid), compare_chids);
                n_entries += d->devices[i].n_chids;
                if ((!strv_contains(strings, d->devices[i].name) && strv_extend(&strings, d->devices[i].name) < 0) ||
                    (!strv_contains(strings, d->devices[i].compatible) &&
                     strv_extend(&strings, d->devices[i].compatible) < 0))
                        return log_oom();
        }
        qsort(strings, strv_length(strings), sizeof(char *), compare_strings);
        size = o = (n_entries + 1) * HWIDS_ENTRY_SIZE;
        STRV_FOREACH(p, strings)
                size += strlen(*p) + 1;
        s = calloc(1, size);
        if (!s)
                return log_oom();
        STRV_FOREACH(p, strings) {
                memcpy(s + o, *p, strlen(*p) + 1);
                o += strlen(*p) + 1;
        }
        o = 0;
        for (size_t i = 0; i < d->n; i++)
                for (size_t k = 0; k < d->devices[i].n_chids; k++, o += HWIDS_ENTRY_SIZE) {
                        put_le32(s + o, d->devices[i].type << 28 | HWIDS_ENTRY_SIZE);
                        memcpy(s + o + 4, d->devices[i].chids[k].bytes, CHID_SIZE);
                        put_le32(s + o + 20, string_offset(strings, (n_entries + 1) * HWIDS_ENTRY_SIZE,
                                                           d->devices[i].name));
                        put_le32(s + o + 24, string_offset(strings, (n_entries + 1) * HWIDS_ENTRY_SIZE,
                                                           d->devices[i].compatible));
                }
        *ret = s;
        *ret_size = size;
        return 0;
}

int hwids_build_from_dir(const char *dir, void **ret, size_t *ret_size) {
        Devices d = {};
        int r;

        assert(dir);
        assert(ret);
        assert(ret_size);

        found_files = NULL;
        r = nftw(dir, collect_json, 16, FTW_PHYS);
        if (r != 0) {
                strv_free(found_files);
                return r < 0 ? log_error_errno(errno, "--hwids=%s: %m", dir) : log_oom();
        }
        if (!found_files)
                return log_error_errno(ENOENT, "--hwids=%s: no *.json device descriptions in it.", dir);
        qsort(found_files, strv_length(found_files), sizeof(char *), compare_paths);
        r = 0;
        STRV_FOREACH(f, found_files)
                if (r >= 0)
                        r = read_description(*f, &d);
        strv_free(found_files);
        found_files = NULL;
        if (r >= 0)
                r = write_section(&d, ret, ret_size);
        devices_done(&d);
        return r;
}
