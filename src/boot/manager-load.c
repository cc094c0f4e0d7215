/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading what an entry names, its bytes judged before LoadImage().
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "efi-log.h"
#include "efi-shim.h"
#include "efi-string.h"
#include "efi-variables.h"
#include "efi-volume.h"
#include "entry-image.h"
#include "manager-load.h"
#include "manager-url-load.h"
#include "memory-fundamental.h"
#include "pe-authenticode.h"
#include "string-fundamental.h"
#include "url.h"

#define IMAGE_MAX (1024U * 1024 * 1024)

static CHAR16 *efi_path(const char *path) {
        _cleanup_ffree_ char *p = bls_path_to_efi(path);

        return p ? utf8_to_char16(p, fstrlen(p)) : NULL;
}

static char *resolve_url(Menu *m, const BlsEntry *e) {
        char *u = NULL;

        if (e->path[0] != ':')
                return fstrdup(e->path);
        /* ":NAME": NAME beside our own URL, with exactly one slash between them. */
        if (!m->own_url || url_change_last_component(m->own_url, e->path + 1, &u) < 0)
                return NULL;
        return u;
}

/* Says why the bytes of what were refused, once. @ret EFI_SECURITY_VIOLATION, or EFI_SUCCESS */
static EFI_STATUS judge(const BlsEntry *e, const char *what, const void *data, size_t size, LoadedEntry *ret) {
        char hex[2 * SHA256_DIGEST_SIZE + 1];

        switch (entry_image_check(e, data, size, ret->digest)) {
        case ENTRY_IMAGE_OK:
                ret->have_digest = true;
                return EFI_SUCCESS;
        case ENTRY_IMAGE_PIN_MISMATCH:
                sha256_to_hex(ret->digest, hex);
                return log_efi(EFI_SECURITY_VIOLATION, "%s has SHA-256 %s, but entry %s pins %s (an older or another "
                               "image); refused", what, hex, e->id, e->pin);
        case ENTRY_IMAGE_NOT_PE:
                return log_efi(EFI_SECURITY_VIOLATION, "%s is not an EFI program (no PE image); refused", what);
        case ENTRY_IMAGE_NOT_UKI:
        default:
                return log_efi(EFI_SECURITY_VIOLATION, "%s is not a UKI (no .linux section): a uki entry starts "
                               "only UKIs, not a kernel or boot loader the firmware also trusts; refused", what);
        }
}

/* Secure Boot refused the bytes; the firmware does not say why, so look: unsigned, changed, or a signer it
 * does not trust (pe-authenticode.h). */
static EFI_STATUS refused(EFI_STATUS s, const char *what, const void *data, size_t size) {
        const char *keys = shim_loaded() ? "db, or the MOK list through shim" : "db";

        switch (pe_signature_verdict(data, size)) {
        case PE_UNSIGNED:
                return log_efi(s, "%s is not signed, and Secure Boot starts only what a key this machine trusts signed "
                               "(%s); refused", what, keys);
        case PE_CHANGED:
                return log_efi(s, "%s was changed after it was signed (its bytes are not the ones its signature "
                               "covers); refused", what);
        case PE_INTACT:
                return log_efi(s, "%s is not signed by a key this machine trusts (%s); refused", what, keys);
        default:
                return log_efi(s, "%s is not signed by a key this machine trusts (%s), or was changed after it was "
                               "signed; refused", what, keys);
        }
}

/* LoadImage() from memory: Secure Boot verifies the buffer (db; through shim also its keys). */
static EFI_STATUS load_buffer(EFI_HANDLE parent, const char *what, EFI_DEVICE_PATH *dp, void *data, size_t size,
                              EFI_HANDLE *ret) {
        EFI_STATUS s = BS->LoadImage(FALSE, parent, dp, data, size, ret);

        if (s == EFI_SECURITY_VIOLATION || s == EFI_ACCESS_DENIED)
                return refused(s, what, data, size);
        if (EFI_ERROR(s))
                return log_efi(s, "cannot load %s", what);
        return s;
}

static EFI_STATUS load_url(Menu *m, EFI_HANDLE image, BootEntry *e, LoadedEntry *ret) {
        _cleanup_ffree_ char *url = resolve_url(m, e->bls);
        Fetched f = {};
        EFI_STATUS s;

        /* url_is_http() is systemd's check and lets CR LF through, which neither our HTTP request nor the
         * firmware's HTTP boot should see. */
        if (!url || !url_is_http(url) || !url_is_printable(url))
                return log_efi(EFI_INVALID_PARAMETER, "%s: not a URL that can be requested as it is", e->bls->path);
        log_efi_info("starting %s", url);
        if (!e->bls->pin && shim_loaded())
                log_efi_info("%s has no urlboot-sha256 pin: through shim, any UKI shim trusts (the MOK list, shim's "
                             "vendor certificate, db) would start in its place", e->bls->id);
        s = url_fetch(image, url, &f);
        if (EFI_ERROR(s))
                return s;
        s = judge(e->bls, url, f.data, f.size, ret);
        if (!EFI_ERROR(s))
                s = load_buffer(image, url, f.device_path, f.data, f.size, &ret->child);
        ffree(f.data); /* LoadImage made its own copy */
        return s;
}

/* A pinned entry on the volume: read first, so that the bytes judged are the bytes loaded. */
static EFI_STATUS load_volume_pinned(EFI_HANDLE image, BootEntry *e, CHAR16 *path, LoadedEntry *ret) {
        _cleanup_file_close_ EFI_FILE *root = volume_open_root(e->device);
        _cleanup_ffree_ EFI_DEVICE_PATH *dp = FileDevicePath(e->device, path);
        _cleanup_ffree_ char *data = NULL;
        size_t size = 0;
        EFI_STATUS s;

        if (!root || !dp)
                return log_efi(EFI_NOT_FOUND, "cannot open the volume of %s", e->bls->path);
        s = volume_read_file(root, path, IMAGE_MAX, &data, &size);
        if (EFI_ERROR(s))
                return log_efi(s, "cannot read %s", e->bls->path);
        s = judge(e->bls, e->bls->path, data, size, ret);
        if (EFI_ERROR(s))
                return s;
        return load_buffer(image, e->bls->path, dp, data, size, &ret->child);
}

static EFI_STATUS load_volume(EFI_HANDLE image, BootEntry *e, LoadedEntry *ret) {
        _cleanup_ffree_ CHAR16 *path = efi_path(e->bls->path);
        _cleanup_ffree_ EFI_DEVICE_PATH *dp = NULL;
        EFI_STATUS s;

        if (!path)
                return EFI_OUT_OF_RESOURCES;
        log_efi_info("starting %s from the volume", e->bls->path);
        if (e->bls->pin)
                return load_volume_pinned(image, e, path, ret);
        dp = FileDevicePath(e->device, path);
        if (!dp)
                return EFI_OUT_OF_RESOURCES;
        s = BS->LoadImage(FALSE, image, dp, NULL, 0, &ret->child);
        if (s == EFI_SECURITY_VIOLATION || s == EFI_ACCESS_DENIED)
                return log_efi(s, "%s is not signed by a key this machine trusts; refused", e->bls->path);
        return s;
}

EFI_STATUS entry_load(Menu *m, EFI_HANDLE image, BootEntry *e, LoadedEntry *ret) {
        fassert(m);
        fassert(e);
        fassert(ret);

        *ret = (LoadedEntry) {};
        if (e->bls->kind == BLS_KIND_UKI_URL)
                return load_url(m, image, e, ret);
        return load_volume(image, e, ret);
}
