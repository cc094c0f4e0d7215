/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Image types, classes and verification modes shared by the generator and urlboot-pull.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "import-types.h"
#include "macro.h"
#include "string-util.h"
#include "url.h"

static const char *const image_type_table[_IMAGE_TYPE_MAX] = {
        [IMAGE_RAW] = "raw",
        [IMAGE_TAR] = "tar",
};

static const char *const image_class_table[_IMAGE_CLASS_MAX] = {
        [IMAGE_MACHINE] = "machine",
        [IMAGE_PORTABLE] = "portable",
        [IMAGE_SYSEXT] = "sysext",
        [IMAGE_CONFEXT] = "confext",
};

static const char *const import_verify_table[_IMPORT_VERIFY_MAX] = {
        [IMPORT_VERIFY_NO] = "no",
        [IMPORT_VERIFY_CHECKSUM] = "checksum",
        [IMPORT_VERIFY_SIGNATURE] = "signature",
};

static const char *const image_root_table[_IMAGE_CLASS_MAX][2] = {
        [IMAGE_MACHINE] = { "/var/lib/machines", "/run/machines" },
        [IMAGE_PORTABLE] = { "/var/lib/portables", "/run/portables" },
        [IMAGE_SYSEXT] = { "/var/lib/extensions", "/run/extensions" },
        [IMAGE_CONFEXT] = { "/var/lib/confexts", "/run/confexts" },
};

static int lookup(const char *const *table, int n, const char *s) {
        if (!s)
                return -EINVAL;
        for (int i = 0; i < n; i++)
                if (streq(table[i], s))
                        return i;
        return -EINVAL;
}

const char *image_type_to_string(ImageType t) {
        return t >= 0 && t < _IMAGE_TYPE_MAX ? image_type_table[t] : NULL;
}

ImageType image_type_from_string(const char *s) {
        return (ImageType) lookup(image_type_table, _IMAGE_TYPE_MAX, s);
}

const char *image_class_to_string(ImageClass c) {
        return c >= 0 && c < _IMAGE_CLASS_MAX ? image_class_table[c] : NULL;
}

ImageClass image_class_from_string(const char *s) {
        return (ImageClass) lookup(image_class_table, _IMAGE_CLASS_MAX, s);
}

const char *import_verify_to_string(ImportVerify v) {
        return v >= 0 && v < _IMPORT_VERIFY_MAX ? import_verify_table[v] : NULL;
}

ImportVerify import_verify_from_string(const char *s) {
        return (ImportVerify) lookup(import_verify_table, _IMPORT_VERIFY_MAX, s);
}

const char *image_root(ImageClass c, bool runtime) {
        return c >= 0 && c < _IMAGE_CLASS_MAX ? image_root_table[c][runtime] : NULL;
}

bool sha256_hex_is_valid(const char *s) {
        return s && strlen(s) == 64 && strspn(s, "0123456789abcdefABCDEF") == 64;
}

int sha256_hex_normalize(const char *s, char ret[65]) {
        assert(s);
        assert(ret);

        for (size_t i = 0; i < 64; i++) {
                char c = s[i];

                if (c >= 'A' && c <= 'F')
                        c += 'a' - 'A';
                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                        return -EINVAL;
                ret[i] = c;
        }
        ret[64] = 0;
        return 0;
}

bool import_url_is_valid(const char *url) {
        if (!url || (!url_is_http(url) && !url_is_file(url)))
                return false;
        for (const char *c = url; *c; c++)
                if ((unsigned char) *c <= ' ' || *c == 0x7f)
                        return false;
        return true;
}
