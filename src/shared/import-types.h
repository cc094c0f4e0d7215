/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Image types, classes and verification modes shared by the generator and urlboot-pull.
 */
#pragma once

#include <errno.h>
#include <stdbool.h>

typedef enum ImageType {
        IMAGE_RAW,
        IMAGE_TAR,
        _IMAGE_TYPE_MAX,
        _IMAGE_TYPE_INVALID = -EINVAL,
} ImageType;

typedef enum ImageClass {
        IMAGE_MACHINE,
        IMAGE_PORTABLE,
        IMAGE_SYSEXT,
        IMAGE_CONFEXT,
        _IMAGE_CLASS_MAX,
        _IMAGE_CLASS_INVALID = -EINVAL,
} ImageClass;

typedef enum ImportVerify {
        IMPORT_VERIFY_NO,
        IMPORT_VERIFY_CHECKSUM,
        IMPORT_VERIFY_SIGNATURE,
        _IMPORT_VERIFY_MAX,
        _IMPORT_VERIFY_INVALID = -EINVAL,
} ImportVerify;

const char *image_type_to_string(ImageType t);
ImageType image_type_from_string(const char *s);
const char *image_class_to_string(ImageClass c);
ImageClass image_class_from_string(const char *s);
const char *import_verify_to_string(ImportVerify v);
ImportVerify import_verify_from_string(const char *s);

/** Where images of a class live: /run/... when runtime (the initrd default), else /var/lib/... */
const char *image_root(ImageClass c, bool runtime);

/** True for exactly 64 hex digits (either case). */
bool sha256_hex_is_valid(const char *s);

/**
 * The lowercase form of the first 64 characters of s, if they are hex digits: the one spelling
 * digests are compared in. s need not be terminated after them.
 * @ret 0, or -EINVAL if they are not 64 hex digits
 */
int sha256_hex_normalize(const char *s, char ret[65]);

/** http(s) and file URLs without whitespace or control characters (safe on a command line and in units). */
bool import_url_is_valid(const char *url);
