/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Pull expressions: parsing and resolution.
 */
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error-buf.h"
#include "image-name.h"
#include "loop-ref.h"
#include "memory-fundamental.h"
#include "path-util.h"
#include "pull-expression.h"
#include "string-util.h"
#include "url.h"

PullExpression *pull_expression_free(PullExpression *e) {
        if (!e)
                return NULL;
        free(e->sha256);
        strv_free(e->mirrors);
        free(e->local);
        free(e->remote);
        free(e->url);
        free(e->image_path);
        free(e);
        return NULL;
}

/* Takes the field up to the next unescaped ":", removing escape backslashes.
 * Returns 1 if a ":" ended it, 0 at the end of the string, -EINVAL for a trailing backslash. */
static int extract_field(const char **p, char **ret) {
        const char *s = *p;
        char *f, *t;

        f = t = malloc(strlen(s) + 1);
        if (!f)
                return -ENOMEM;

        for (; *s && *s != ':'; s++) {
                if (*s == '\\') {
                        if (!s[1]) {
                                free(f);
                                return -EINVAL;
                        }
                        s++;
                }
                *t++ = *s;
        }
        *t = 0;

        *ret = f;
        if (*s == ':') {
                *p = s + 1;
                return 1;
        }
        *p = s;
        return 0;
}

static int parse_option(PullExpression *e, const char *opt, char *error, size_t error_size) {
        const char *v;
        int r;

        if (streq(opt, "ro"))
                e->read_only = true;
        else if (streq(opt, "rw"))
                e->read_only = false;
        else if (streq(opt, "blockdev"))
                e->blockdev = true;
        else if (streq(opt, "bootorigin"))
                e->bootorigin = true;
        else if (streq(opt, "lazy"))
                e->lazy = true;
        else if (streq(opt, "serve"))
                e->serve = true;
        else if ((v = startswith(opt, "runtime="))) {
                r = parse_boolean(v);
                if (r < 0)
                        return error_setf(error, error_size, -EINVAL, "invalid boolean in option '%s'", opt);
                e->runtime = r;
        } else if ((v = startswith(opt, "verify="))) {
                ImportVerify m = import_verify_from_string(v);
                if (m < 0)
                        return error_setf(error, error_size, -EINVAL,
                                          "invalid verification mode in option '%s' (no, checksum, signature)", opt);
                e->verify = m;
                e->verify_explicit = true;
        } else if ((v = startswith(opt, "sha256="))) {
                char digest[65];

                if (!sha256_hex_is_valid(v) || sha256_hex_normalize(v, digest) < 0)
                        return error_setf(error, error_size, -EINVAL, "option '%s' needs 64 hexadecimal digits", opt);
                free(e->sha256);
                e->sha256 = strdup(digest);
                if (!e->sha256)
                        return -ENOMEM;
        } else if ((v = startswith(opt, "mirror="))) {
                if (!import_url_is_valid(v))
                        return error_setf(error, error_size, -EINVAL,
                                          "option '%s' needs an http, https or file URL (escape its ':' as '\\:')",
                                    opt);
                r = strv_extend(&e->mirrors, v);
                if (r < 0)
                        return r;
        } else if (image_class_from_string(opt) >= 0)
                e->class = image_class_from_string(opt);
        else if (image_type_from_string(opt) >= 0)
                e->type = image_type_from_string(opt);
        else
                return error_setf(error, error_size, -EINVAL, "unknown option '%s'", opt);
        return 0;
}

/* "lazy" uses blocks before the whole file is there: nothing that checks the whole file applies. */
static int check_lazy(const PullExpression *e, char *error, size_t error_size) {
        if (!e->lazy)
                return 0;
        if (e->type != IMAGE_RAW || !e->blockdev)
                return error_setf(error, error_size, -EINVAL,
                                  "option 'lazy' needs 'raw' and 'blockdev' (it attaches a disk image while it is copied)");
        if (e->sha256)
                return error_setf(error, error_size, -EINVAL,
                                  "option 'lazy' cannot check 'sha256=' (the file is used before it is complete); "
                                  "pin roothash= or usrhash= instead");
        if (e->verify_explicit && e->verify != IMPORT_VERIFY_NO)
                return error_setf(error, error_size, -EINVAL,
                                  "option 'lazy' cannot check 'verify=%s' (the file is used before it is complete); "
                                  "pin roothash= or usrhash= instead", import_verify_to_string(e->verify));
        if (e->mirrors)
                return error_setf(error, error_size, -EINVAL, "option 'lazy' reads from one URL: it takes no 'mirror='");
        return 0;
}

/* Lazy reads the image in place: plain, multi-block xz or seekable zstd (urlboot's nbdkit plugin), never a
 * stream format. A .zst without a seek table is refused by the plugin when it opens it. */
static int check_lazy_url(const PullExpression *e, char *error, size_t error_size) {
        static const char *const streams[] = { ".gz", ".bz2", ".tgz" };
        _cleanup_free_ char *name = NULL;

        if (!e->lazy)
                return 0;
        if (url_last_component(e->url, &name) < 0)
                return error_setf(error, error_size, -EINVAL, "option 'lazy' needs a URL naming a file, not '%s'", e->url);
        for (size_t i = 0; i < ELEMENTSOF(streams); i++)
                if (endswith(name, streams[i]))
                        return error_setf(error, error_size, -EINVAL,
                                          "option 'lazy' reads the image in place: '%s' must be uncompressed, "
                                          "multi-block .xz or seekable .zst, not %s", name, streams[i]);
        return 0;
}

static int parse_options(PullExpression *e, char *options, char *error, size_t error_size) {
        /* Separators are not coalesced: "a,,b" has an empty, hence unknown, option. */
        for (char *o = options;;) {
                char *comma = strchr(o, ',');
                int r;

                if (comma)
                        *comma = 0;
                r = parse_option(e, o, error, error_size);
                if (r < 0)
                        return r;
                if (!comma)
                        return 0;
                o = comma + 1;
        }
}

int pull_expression_parse(const char *s, PullExpression **ret, char *error, size_t error_size) {
        _cleanup_pull_expression_ PullExpression *e = NULL;
        _cleanup_free_ char *options = NULL, *local = NULL;
        const char *p = s;
        int r;

        assert(s);
        assert(ret);

        if (error_size > 0)
                error[0] = 0;

        e = calloc(1, sizeof *e);
        if (!e)
                return -ENOMEM;
        *e = (PullExpression) {
                .type = _IMAGE_TYPE_INVALID,
                .class = _IMAGE_CLASS_INVALID,
                .runtime = -1,
                .verify = IMPORT_VERIFY_SIGNATURE,
        };

        r = extract_field(&p, &options);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return error_setf(error, error_size, -EINVAL, "trailing backslash in options");
        if (r == 0)
                return error_setf(error, error_size, -EINVAL, "no local name field (expected OPTIONS:LOCAL:URL)");

        r = extract_field(&p, &local);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return error_setf(error, error_size, -EINVAL, "trailing backslash in local name");
        if (r == 0)
                return error_setf(error, error_size, -EINVAL, "no URL field (expected OPTIONS:LOCAL:URL)");

        if (*p == 0)
                return error_setf(error, error_size, -EINVAL, "empty URL");

        if (!isempty(local)) {
                if (!image_name_is_valid(local))
                        return error_setf(error, error_size, -EINVAL, "'%s' is not a valid image name", local);
                e->local = TAKE_PTR(local);
        }

        e->remote = strdup(p);
        if (!e->remote)
                return -ENOMEM;

        r = parse_options(e, options, error, error_size);
        if (r < 0)
                return r;

        if (e->type < 0)
                return error_setf(error, error_size, -EINVAL, "no image type (raw, tar)");
        if (e->class < 0)
                return error_setf(error, error_size, -EINVAL, "no image class (machine, portable, sysext, confext)");
        if (e->blockdev && e->type != IMAGE_RAW)
                return error_setf(error, error_size, -EINVAL, "option 'blockdev' is only available for raw images");
        r = check_lazy(e, error, error_size);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(e);
        return 0;
}

/* With bootorigin REMOTE names a file next to the boot URL: a relative path, never a URL. */
static bool bootorigin_name_is_valid(const char *name) {
        const char *slash = strchr(name, '/'), *colon = strchr(name, ':');

        if (name[0] == '/' || (colon && (!slash || colon < slash)))
                return false;
        for (const char *c = name; *c; c++)
                if ((unsigned char) *c <= ' ' || *c == 0x7f || *c == '?' || *c == '#')
                        return false;
        return true;
}

static int resolve_url(PullExpression *e, const char *stub_url, char *error, size_t error_size) {
        char *u;
        int r;

        if (!e->bootorigin) {
                if (!import_url_is_valid(e->remote))
                        return error_setf(error, error_size, -EINVAL,
                                          "'%s' is not a valid http, https or file URL", e->remote);
                e->url = strdup(e->remote);
                return e->url ? 0 : -ENOMEM;
        }

        if (!stub_url || !url_is_http(stub_url))
                return error_setf(error, error_size, -EINVAL,
                                  "StubDeviceURL '%s' is not a valid http or https URL", stub_url ?: "");
        if (!bootorigin_name_is_valid(e->remote))
                return error_setf(error, error_size, -EINVAL,
                                  "with 'bootorigin' the URL field must be a file name, not '%s'", e->remote);

        r = url_change_last_component(stub_url, e->remote, &u);
        if (r == -ENOMEM)
                return r;
        if (r < 0 || !import_url_is_valid(u)) {
                if (r >= 0)
                        ffree(u);
                return error_setf(error, error_size, -EINVAL,
                                  "cannot combine StubDeviceURL '%s' with '%s'", stub_url, e->remote);
        }
        e->url = u;
        return 0;
}

int pull_expression_resolve(PullExpression *e, const char *stub_url, bool initrd, char *error, size_t error_size) {
        int r;

        assert(e);

        if (error_size > 0)
                error[0] = 0;

        r = resolve_url(e, stub_url, error, error_size);
        if (r < 0)
                return r;
        r = check_lazy_url(e, error, error_size);
        if (r < 0)
                return r;

        if (!e->local) {
                r = image_name_from_url(e->url, e->type == IMAGE_TAR, &e->local);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        return error_setf(error, error_size, -EINVAL,
                                          "cannot derive a local image name from '%s'; name it in the LOCAL field",
                                    e->url);
        }

        /* With blockdev, NAME.raw becomes the loop device's reference: longer ones fail at boot. */
        if (e->blockdev && strlen(e->local) + STRLEN(".raw") > LOOP_REF_MAX)
                return error_setf(error, error_size, -EINVAL,
                                  "the local name '%s' is too long for 'blockdev': '%s.raw' must fit in the "
                            "loop device's %d-byte reference", e->local, e->local, LOOP_REF_MAX);

        e->image_root = image_root(e->class, e->runtime >= 0 ? e->runtime : initrd);
        if (asprintf(&e->image_path, "%s/%s%s", e->image_root, e->local, e->type == IMAGE_RAW ? ".raw" : "") < 0) {
                e->image_path = NULL;
                return -ENOMEM;
        }
        return 0;
}
