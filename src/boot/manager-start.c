/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Starting the chosen entry: count the start (rename the entry's file), load what it names - an
 * EFI-stub kernel with its initrds, an EFI program, a local UKI or a UKI fetched by URL - hand it
 * the load options and start it.
 */
#include <efi.h>
#include <efilib.h>

#include "efi-cleanup.h"
#include "efi-initrd.h"
#include "efi-log.h"
#include "efi-string.h"
#include "efi-tpm.h"
#include "efi-ticks.h"
#include "efi-variables.h"
#include "efi-volume.h"
#include "manager-url-load.h"
#include "manager.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "stub-measure.h"
#include "url.h"

#define INITRD_MAX (1024U * 1024 * 1024)

/* "+LEFT-DONE": rename before starting, so a start that never comes back still counts. */
static void count_start(BootEntry *e) {
        _cleanup_file_close_ EFI_FILE *root = NULL;
        _cleanup_ffree_ char *next = NULL;
        _cleanup_ffree_ CHAR16 *path = NULL;

        if (!e->filename || !e->dir || bls_counter_next_filename(e->filename, &next) < 0)
                return;
        root = volume_open_root(e->device);
        if (!root || volume_rename(root, e->dir, e->filename, next) != EFI_SUCCESS) {
                log_efi_info("could not count this start (renaming the entry file failed); booting anyway.");
                return;
        }
        path = volume_path_join(e->dir, next);
        if (path)
                (void) RT->SetVariable(L"LoaderBootCountPath", &loader_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                                       StrSize(path), path);
}

static CHAR16 *efi_path(const char *path) {
        _cleanup_ffree_ char *p = bls_path_to_efi(path);

        return p ? utf8_to_char16(p, fstrlen(p)) : NULL;
}

static EFI_STATUS load_file_image(EFI_HANDLE parent, EFI_HANDLE device, const char *path, EFI_HANDLE *ret) {
        _cleanup_ffree_ CHAR16 *w = efi_path(path);
        _cleanup_ffree_ EFI_DEVICE_PATH *dp = w ? FileDevicePath(device, w) : NULL;

        if (!dp)
                return EFI_OUT_OF_RESOURCES;
        return BS->LoadImage(FALSE, parent, dp, NULL, 0, ret);
}

/* Appends a file of the volume to *all (which grows by its size). */
static EFI_STATUS append_file(EFI_FILE *root, const char *path, char **all, size_t *total) {
        _cleanup_ffree_ CHAR16 *w = efi_path(path);
        _cleanup_ffree_ char *data = NULL;
        char *grown;
        size_t size = 0;
        EFI_STATUS s;

        if (!w)
                return EFI_OUT_OF_RESOURCES;
        s = volume_read_file(root, w, INITRD_MAX, &data, &size);
        if (EFI_ERROR(s))
                return s;
        grown = fmalloc(*total + size + 1);
        if (!grown)
                return EFI_OUT_OF_RESOURCES;
        fmemcpy(grown, *all ?: "", *total);
        fmemcpy(grown + *total, data, size);
        ffree(*all);
        *all = grown;
        *total += size;
        return EFI_SUCCESS;
}

/* All initrds of the entry, one after the other, as the kernel's LoadFile2 initrd. */
static EFI_STATUS register_initrds(BootEntry *e, EFI_HANDLE *ret) {
        _cleanup_file_close_ EFI_FILE *root = NULL;
        _cleanup_ffree_ char *all = NULL;
        size_t total = 0;
        EFI_STATUS s;

        *ret = NULL;
        if (e->bls->n_initrds == 0)
                return EFI_SUCCESS;
        root = volume_open_root(e->device);
        if (!root)
                return EFI_NOT_FOUND;
        for (unsigned i = 0; i < e->bls->n_initrds; i++) {
                s = append_file(root, e->bls->initrds[i], &all, &total);
                if (EFI_ERROR(s))
                        return s;
        }
        s = initrd_register(all, total, ret);
        if (!EFI_ERROR(s))
                TAKE_PTR(all);  /* the buffer stays for the kernel */
        return s;
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

static EFI_STATUS load_entry(Menu *m, EFI_HANDLE image, BootEntry *e, EFI_HANDLE *ret) {
        _cleanup_ffree_ char *url = NULL;

        if (e->bls->kind != BLS_KIND_UKI_URL) {
                log_efi_info("starting %s from the volume", e->bls->path);
                return load_file_image(image, e->device, e->bls->path, ret);
        }
        url = resolve_url(m, e->bls);
        /* url_is_http() is systemd's check and lets CR LF through, which neither our HTTP request nor the
         * firmware's HTTP boot should see. */
        if (!url || !url_is_http(url) || !url_is_printable(url))
                return log_efi(EFI_INVALID_PARAMETER, "%s: not a URL that can be requested as it is", e->bls->path);
        log_efi_info("starting %s", url);
        return url_load_image(image, url, ret);
}

/* Hands the child its options and measures them into PCR 12 as systemd-boot does (edited ones too). */
static void set_load_options(EFI_HANDLE child, const char *text) {
        EFI_LOADED_IMAGE *li;
        MeasureEvent e;
        bool measured;
        CHAR16 *o;

        if (!text || BS->HandleProtocol(child, &LoadedImageProtocol, (void **) &li) != EFI_SUCCESS)
                return;
        o = utf8_to_char16(text, fstrlen(text));
        if (!o)
                return;
        /* the child reads them when it runs: they stay */
        li->LoadOptions = o;
        li->LoadOptionsSize = (UINT32) StrSize(o);
        stub_measure_cmdline(o, StrLen(o), &e);
        (void) tpm_measure(&e, &measured);
}

EFI_STATUS start_entry(Menu *m, EFI_HANDLE image, BootEntry *e, const char *options_override) {
        _cleanup_ffree_ char *options = NULL;
        EFI_HANDLE child = NULL, initrd = NULL;
        EFI_STATUS s;

        count_start(e);
        rollout_starting(m, e);
        (void) set_loader_string(L"LoaderEntrySelected", e->bls->id);
        if (m->save_entry)
                (void) set_loader_string_persistent(L"LoaderEntryLastBooted", e->bls->id);

        s = load_entry(m, image, e, &child);
        if (EFI_ERROR(s))
                return s;
        if (e->bls->kind == BLS_KIND_LINUX) {
                s = register_initrds(e, &initrd);
                if (EFI_ERROR(s)) {
                        (void) BS->UnloadImage(child);
                        return s;
                }
        }
        options = options_override ? fstrdup(options_override) : bls_entry_load_options(e->bls);
        set_load_options(child, options);
        (void) set_loader_time(L"LoaderTimeExecUSec");
        s = BS->StartImage(child, NULL, NULL);
        initrd_unregister(initrd);
        return s;
}
