/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What urlboot-serve serves, under which URL paths: this machine's boot at the paths it came from (so that
 * a machine booting through this one finds every file where the boot manager's entries, the UKI's
 * bootorigin and its pins expect it), and disks given by the administrator.
 *
 *   the booted UKI       at StubDeviceURL's path, fetched once and kept only when it is what booted
 *                        (UrlbootImageSHA256); without that record it is not served
 *   the boot manager     at LoaderDeviceURL's path, from --boot-manager=FILE (its bytes are what the
 *                        firmware verifies under Secure Boot; no record says which file booted)
 *   pulled images        at each pull expression's URL path: the file as it was downloaded when the
 *                        expression says "serve" (urlboot-pull kept it, verified by the same pins), or
 *                        the image itself when it was downloaded uncompressed or copied by urlboot-lazy
 *                        (a client's dm-verity pins what it reads; a lazy copy only once local)
 *   disks                at /disk/NAME or the path given: --disk=FILE[=PATH], opt-in, read-only
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "boot-origin.h"
#include "resource.h"

typedef struct CatalogOptions {
        bool boot;                      /* serve this machine's boot (the default) */
        const char *cache_dir;          /* where the fetched UKI is kept */
        const char *machines_dir;       /* where pulled images are (/run/machines) */
        const char *keep_dir;           /* where urlboot-pull keeps downloads ("serve") */
        const char *lazy_dir;           /* urlboot-lazy's state files */
        const char *boot_manager;       /* the boot manager's file, or NULL */
        char **disks;                   /* FILE or FILE=PATH */
} CatalogOptions;

typedef struct Catalog {
        Resource *items;
        size_t n;
} Catalog;

/**
 * Find what can be served; logs one line for each thing served and for each that cannot be (why).
 * @ret the number of resources, negative errno (a --disk= that cannot be opened is an error)
 */
int catalog_build(Catalog *c, const CatalogOptions *o, const BootOrigin *origin);

/** The resource at a URL path (as the server decoded it), or NULL. */
Resource *catalog_find(Catalog *c, const char *path);

/** Check again what was not ready (a lazy copy that has finished meanwhile). */
void catalog_refresh(Catalog *c, const CatalogOptions *o);

void catalog_done(Catalog *c);
