/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Rollouts: the server's entry list, its verification, and boot counting in an EFI variable. The rules
 * (which version, when it counts) are src/fundamental/rollout.c's; this is the glue.
 */
#include <efi.h>
#include <efilib.h>

#include "efi-cleanup.h"
#include "efi-log.h"
#include "efi-shim.h"
#include "efi-variables.h"
#include "manager-url-load.h"
#include "manager.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "printf-fundamental.h"
#include "rollout.h"
#include "string-fundamental.h"
#include "url.h"

/* An entry list is a few entries; a boot manager image carrying it is a few hundred KiB. */
#define ENTRY_LIST_MAX (16U * 1024U * 1024U)

static char *list_url(Menu *m) {
        const char *u = m->conf.rollout_entries;
        char *r = NULL;

        if (u[0] != ':')
                return fstrdup(u);
        if (!m->own_url || url_change_last_component(m->own_url, u + 1, &r) < 0)
                return NULL;
        return r;
}

/* The .entries of an image that LoadImage verified (Secure Boot: db, or shim's MOK list), read from the
 * loaded copy, which is what was checked; the image is never started. */
static EFI_STATUS add_verified(Menu *m, EFI_HANDLE image, const char *url, Fetched *f) {
        EFI_LOADED_IMAGE *li = NULL;
        EFI_HANDLE h = NULL;
        const uint8_t *d;
        size_t n;
        EFI_STATUS s;

        s = BS->LoadImage(FALSE, image, f->device_path, f->data, f->size, &h);
        if (EFI_ERROR(s))
                return log_efi(s, "%s: the entry list is not signed by a key this machine trusts (%s); ignored", url,
                               shim_loaded() ? "db, or the MOK list through shim" : "db");
        s = BS->HandleProtocol(h, &LoadedImageProtocol, (void **) &li);
        if (!EFI_ERROR(s) && pe_find_section(li->ImageBase, li->ImageSize, ".entries", true, &d, &n) >= 0)
                entries_add_section(m, d, n, true);
        (void) BS->UnloadImage(h);
        return s;
}

void rollout_collect(Menu *m, EFI_HANDLE image) {
        _cleanup_ffree_ char *url = NULL;
        Fetched f = {};
        const uint8_t *d;
        size_t n;
        EFI_STATUS s;

        if (!m->conf.rollout_entries)
                return;
        url = list_url(m);
        if (!url || !url_is_http(url) || !url_is_printable(url)) {
                log_efi_info("urlboot-entries %s: not a URL that can be requested; no rollout", m->conf.rollout_entries);
                return;
        }
        s = url_fetch(image, url, &f);
        if (EFI_ERROR(s)) {
                (void) log_efi(s, "cannot fetch the entry list %s; only the other entries are offered", url);
                return;
        }
        if (secure_boot_enabled())
                (void) add_verified(m, image, url, &f);
        else if (m->tls_ca && fstartswith(url, "https://")) {
                /* Secure Boot off: the list is what TLS with the CA pinned in this image vouches for */
                if (f.size <= ENTRY_LIST_MAX && pe_find_section(f.data, f.size, ".entries", false, &d, &n) >= 0)
                        entries_add_section(m, d, n, true);
        } else
                log_efi_info("%s: the entry list is not verified (Secure Boot is off, and it did not come over https "
                             "with a CA pinned in this boot manager); ignored", url);
        ffree(f.data);
        entries_sort(m);
}

/* The rollout's entries' IDs, newest first (the menu's order), and their places in the menu. */
static size_t rollout_ids(Menu *m, const char **ids, unsigned *index) {
        size_t n = 0;

        for (unsigned i = 0; i < m->n && n < ROLLOUT_ENTRIES_MAX; i++)
                if (m->entries[i].rollout) {
                        ids[n] = m->entries[i].bls->id;
                        index[n++] = i;
                }
        return n;
}

static void store_read(RolloutStore *s) {
        _cleanup_ffree_ char *text = NULL;
        size_t size = 0;

        if (efi_variable_read(&urlboot_vendor_guid, L"" URLBOOT_VAR_ROLLOUT, ROLLOUT_TEXT_MAX, (void **) &text, &size) !=
            EFI_SUCCESS)
                size = 0;
        rollout_store_parse(text, size, s);
}

static EFI_STATUS store_write(const RolloutStore *s) {
        static char text[ROLLOUT_TEXT_MAX + 1];
        size_t n = rollout_store_format(s, text, sizeof text);

        if (n == 0) /* an empty store: the variable goes */
                return RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT, &urlboot_vendor_guid, 0, 0, NULL);
        return RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT, &urlboot_vendor_guid, EFI_VARIABLE_PERSISTENT_DEFAULT, n, text);
}

void rollout_default(Menu *m, unsigned *index) {
        const char *ids[ROLLOUT_ENTRIES_MAX];
        unsigned where[ROLLOUT_ENTRIES_MAX];
        static RolloutStore s;
        RolloutChoice c;
        size_t n;

        n = rollout_ids(m, ids, where);
        if (n == 0)
                return;
        store_read(&s);
        rollout_choose(ids, n, &s, &c);
        if (c.index < 0) {
                log_efi_info("every version offered has used up its tries; booting the menu's default");
                return;
        }
        if (c.reason == ROLLOUT_REASON_FALLBACK)
                log_efi_info("%s used up its tries: falling back to %s", ids[c.newest_exhausted], ids[c.index]);
        *index = where[c.index];
}

/* "ID\nSTATE\nWHY" for the booted system (urlbootctl status): what runs and why it was chosen. */
static void export_choice(const char *id, const RolloutRecord *r, const char *why) {
        char text[3 * 256];

        fsnprintf(text, sizeof text, "%s\n%s\n%s", id, rollout_state_to_string(r->state), why);
        (void) RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT_CHOICE, &urlboot_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT,
                               fstrlen(text), text);
}

void rollout_starting(Menu *m, BootEntry *e) {
        const char *ids[ROLLOUT_ENTRIES_MAX];
        unsigned where[ROLLOUT_ENTRIES_MAX];
        static RolloutStore s;
        RolloutChoice c;
        RolloutRecord *r;
        char why[256];
        size_t n;
        int k;

        if (!e->rollout)
                return;
        n = rollout_ids(m, ids, where);
        store_read(&s);
        /* what the server no longer offers goes: the variable stays bounded */
        rollout_store_prune(&s, ids, n);
        rollout_choose(ids, n, &s, &c);
        /* "+N" in the entry's file name (image-43+2.conf) gives this version its own number of tries */
        k = rollout_count_start(&s, e->bls->id, e->bls->tries_left >= 0 ? (unsigned) e->bls->tries_left
                                                                           : m->conf.rollout_tries);
        if (k < 0)
                log_efi_info("%s has no tries left, started by hand", e->bls->id);
        if (store_write(&s) != EFI_SUCCESS)
                log_efi_info("cannot record this start of %s (UrlbootRollout); booting anyway", e->bls->id);
        r = rollout_store_find(&s, e->bls->id);
        if (!r)
                return;
        if (c.index >= 0 && fstreq(ids[c.index], e->bls->id) && c.reason == ROLLOUT_REASON_FALLBACK)
                fsnprintf(why, sizeof why, "fallback: %s used up its tries", ids[c.newest_exhausted]);
        else if (c.index >= 0 && fstreq(ids[c.index], e->bls->id))
                fsnprintf(why, sizeof why, "newest version");
        else
                fsnprintf(why, sizeof why, "chosen in the menu");
        if (r->state == ROLLOUT_TRIAL)
                log_efi_info("%s is on trial: start %u, %u tries left", e->bls->id, r->tries_done, r->tries_left);
        export_choice(e->bls->id, r, why);
}
