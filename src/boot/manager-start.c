/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Starting the chosen entry: count the start (rename the entry's file), load what it names - an
 * EFI-stub kernel with its initrds, an EFI program, a local UKI or a UKI fetched by URL (manager-load.c) -
 * hand it the load options, say what it is (its SHA-256 for the booted system) and start it.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "efi-initrd.h"
#include "efi-log.h"
#include "efi-string.h"
#include "efi-tls.h"
#include "efi-tpm.h"
#include "efi-ticks.h"
#include "efi-variables.h"
#include "efi-volume.h"
#include "manager-load.h"
#include "manager-rollout.h"
#include "manager-start.h"
#include "sha256.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"
#include "stub-measure.h"

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

/* What the booted system reads to know which bytes the boot manager verified and started. */
static void export_digest(const LoadedEntry *l) {
        char hex[2 * SHA256_DIGEST_SIZE + 1];

        if (!l->have_digest) {
                (void) RT->SetVariable(L"" URLBOOT_VAR_IMAGE_SHA256, &urlboot_vendor_guid, 0, 0, NULL);
                return;
        }
        sha256_to_hex(l->digest, hex);
        (void) RT->SetVariable(L"" URLBOOT_VAR_IMAGE_SHA256, &urlboot_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                               2 * SHA256_DIGEST_SIZE, hex);
}

EFI_STATUS start_entry(Menu *m, EFI_HANDLE image, BootEntry *e, const char *options_override, bool *ret_started) {
        _cleanup_ffree_ char *options = NULL;
        EFI_HANDLE initrd = NULL;
        LoadedEntry l;
        EFI_STATUS s;

        fassert(m);
        fassert(e);
        fassert(ret_started);

        *ret_started = false;
        count_start(e);
        s = entry_load(m, image, e, &l);
        if (EFI_ERROR(s))
                return s;
        if (e->bls->kind == BLS_KIND_LINUX) {
                s = register_initrds(e, &initrd);
                if (EFI_ERROR(s)) {
                        (void) BS->UnloadImage(l.child);
                        return s;
                }
        }
        options = options_override ? fstrdup(options_override) : bls_entry_load_options(e->bls);
        set_load_options(l.child, options);
        (void) set_loader_string(L"LoaderEntrySelected", e->bls->id);
        if (m->save_entry)
                (void) set_loader_string_persistent(L"LoaderEntryLastBooted", e->bls->id);
        export_digest(&l);
        /* counted now, not before the fetch: a fetch the network spoiled costs no try (rollout.h) */
        rollout_starting(m, e, l.child);
        /* the owner's TLS CA list is back before anything else runs */
        tls_pin_end();
        (void) set_loader_time(L"LoaderTimeExecUSec");
        *ret_started = true;
        s = BS->StartImage(l.child, NULL, NULL);
        initrd_unregister(initrd);
        return s;
}
