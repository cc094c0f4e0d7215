/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where this machine's boot came from, as the boot manager and the stub recorded it in EFI variables
 * (LoaderDeviceURL, StubDeviceURL, UrlbootImageSHA256), and the booted UKI fetched once more from its URL and
 * kept only when its SHA-256 is the one the boot manager started: a network-booted UKI is on no disk, and
 * what is served must be exactly what booted.
 */
#pragma once

#include <stddef.h>

typedef struct BootOrigin {
        char *loader_url;       /* the boot manager's URL (the UKI's, when the firmware started it) */
        char *stub_url;         /* the UKI's */
        char *uki_sha256;       /* what the boot manager started (lowercase hex), NULL when it recorded none */
} BootOrigin;

/** Read the variables (missing ones stay NULL). @ret 0, -ENOMEM */
int boot_origin_load(BootOrigin *o);

void boot_origin_done(BootOrigin *o);

/** The path of an http(s) URL, percent-decoded ("/dir/name"; "/" for none). @ret 0, -EINVAL, -ENOMEM */
int url_path(const char *url, char **ret);

/**
 * GET url (with the pinned CA for https) and keep it at path, atomically, only when its SHA-256 is sha256.
 * @ret 0, or negative errno with error saying why (-EBADMSG: another digest)
 */
int fetch_verified(const char *url, const char *sha256, const char *path, char *error, size_t error_size);
