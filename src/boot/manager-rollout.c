/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Rollouts: the server's entry list (verified, not older than the one taken last, else the kept one), boot
 * counting in an EFI variable right before a version runs, and the next version in the same boot when a
 * UKI cannot be fetched. The rules (which version, when it counts, which list) are src/fundamental's
 * rollout.c and rollout-list.c; this is the glue.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-cleanup.h"
#include "errno-fundamental.h"
#include "efi-log.h"
#include "efi-shim.h"
#include "efi-tls.h"
#include "efi-variables.h"
#include "efi-watchdog.h"
#include "manager-url-load.h"
#include "manager-entries.h"
#include "manager-rollout.h"
#include "memory-fundamental.h"
#include "pe-image.h"
#include "printf-fundamental.h"
#include "rollout-list.h"
#include "rollout.h"
#include "string-fundamental.h"
#include "trial-watchdog.h"
#include "url.h"

/* An entry list is a few entries; a boot manager image carrying it is a few hundred KiB. */
#define ENTRY_LIST_MAX (16U * 1024U * 1024U)
/* What is kept of the list taken last: firmware keeps variables of a few KiB to a few tens of KiB. */
#define KEPT_MAX (16U * 1024U)

/* An entry list's two sections, copied out of the image they came in. */
typedef struct EntryList {
        RolloutListMeta meta;
        uint8_t *entries;
        size_t entries_size;
} EntryList;

static void entry_list_done(EntryList *l) {
        ffree(l->entries);
        *l = (EntryList) {};
}

static char *list_url(Menu *m) {
        const char *u = m->conf.rollout_entries;
        char *r = NULL;

        if (u[0] != ':')
                return fstrdup(u);
        if (!m->own_url || url_change_last_component(m->own_url, u + 1, &r) < 0)
                return NULL;
        return r;
}

/* The sections of an image as it is (loaded: memory layout; else a file). @ret 0, or <0 (logged) */
static int list_sections(const char *url, const void *image, size_t size, bool loaded, EntryList *ret) {
        const uint8_t *meta, *entries;
        size_t meta_size, entries_size;

        if (pe_find_section(image, size, ".rollout", loaded, &meta, &meta_size) < 0 ||
            pe_find_section(image, size, ".entries", loaded, &entries, &entries_size) < 0) {
                log_efi_info("%s: no .rollout and .entries sections: not an entry list (urlbootctl build-manager "
                             "--generation= makes one); ignored", url);
                return -EBADMSG;
        }
        if (rollout_list_meta_parse((const char *) meta, meta_size, &ret->meta) < 0) {
                log_efi_info("%s: its .rollout section has no valid generation and time; ignored", url);
                return -EBADMSG;
        }
        ret->entries = fmalloc(entries_size ?: 1);
        if (!ret->entries)
                return -ENOMEM;
        fmemcpy(ret->entries, entries, entries_size);
        ret->entries_size = entries_size;
        return 0;
}

/* The sections of an image that LoadImage verified (Secure Boot: db, or shim's keys), read from the loaded
 * copy, which is what was checked; the image is never started. */
static int list_verified(EFI_HANDLE image, const char *url, Fetched *f, EntryList *ret) {
        EFI_LOADED_IMAGE *li = NULL;
        EFI_HANDLE h = NULL;
        int r = -EBADMSG;
        EFI_STATUS s;

        s = BS->LoadImage(FALSE, image, f->device_path, f->data, f->size, &h);
        if (EFI_ERROR(s)) {
                log_efi(s, "%s: the entry list is not signed by a key this machine trusts (%s); ignored", url,
                        shim_loaded() ? "db, or the MOK list through shim" : "db");
                return -EPERM;
        }
        if (BS->HandleProtocol(h, &LoadedImageProtocol, (void **) &li) == EFI_SUCCESS)
                r = list_sections(url, li->ImageBase, li->ImageSize, true, ret);
        (void) BS->UnloadImage(h);
        return r;
}

/* The list the server offers now, verified. @ret 0, or <0 (logged) */
static int list_fetch(Menu *m, EFI_HANDLE image, const char *url, EntryList *ret) {
        Fetched f = {};
        EFI_STATUS s;
        int r;

        s = url_fetch(image, url, &f);
        if (EFI_ERROR(s)) {
                (void) log_efi(s, "cannot fetch the entry list %s", url);
                return -EIO;
        }
        if (secure_boot_enabled())
                r = list_verified(image, url, &f, ret);
        else if (m->tls_ca && fstartswith(url, "https://") && !tls_pin_exclusive()) {
                log_efi_info("%s: the firmware's TLS also trusts CAs this boot manager does not pin (TlsCaCertificate), "
                             "so https does not vouch for the entry list; ignored (use Secure Boot, or give the "
                             "firmware only the pinned CA)", url);
                r = -EPERM;
        } else if (m->tls_ca && fstartswith(url, "https://"))
                /* Secure Boot off: the list is what TLS with the CA pinned in this image (alone) vouches for */
                r = f.size <= ENTRY_LIST_MAX ? list_sections(url, f.data, f.size, false, ret) : -EFBIG;
        else {
                log_efi_info("%s: the entry list is not verified (Secure Boot is off, and it did not come over https "
                             "with a CA pinned in this boot manager); ignored", url);
                r = -EPERM;
        }
        ffree(f.data);
        return r;
}

/* urlbootctl rollout reset-generation asked (as root) to take any generation again. */
static void kept_reset_if_asked(void) {
        _cleanup_ffree_ void *ask = NULL;
        size_t size;

        if (efi_variable_read(&urlboot_vendor_guid, L"" URLBOOT_VAR_ROLLOUT_RESET, 64, &ask, &size) != EFI_SUCCESS)
                return;
        (void) RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT_KEPT, &urlboot_vendor_guid, 0, 0, NULL);
        (void) RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT_RESET, &urlboot_vendor_guid, 0, 0, NULL);
        log_efi_info("the entry list kept from earlier boots was forgotten, as urlbootctl rollout reset-generation "
                     "asked: any generation is taken");
}

/* The list taken last (boot services only: nothing in the booted system can write it). @ret 0, -ENOENT */
static int kept_read(EntryList *ret) {
        _cleanup_ffree_ uint8_t *data = NULL;
        const uint8_t *entries;
        size_t size, entries_size;

        if (efi_variable_read(&urlboot_vendor_guid, L"" URLBOOT_VAR_ROLLOUT_KEPT, KEPT_MAX, (void **) &data, &size) !=
            EFI_SUCCESS)
                return -ENOENT;
        if (rollout_list_cache_parse(data, size, &ret->meta, &entries, &entries_size) < 0)
                return -ENOENT;
        ret->entries = fmalloc(entries_size ?: 1);
        if (!ret->entries)
                return -ENOMEM;
        fmemcpy(ret->entries, entries, entries_size);
        ret->entries_size = entries_size;
        return 0;
}

/* Keep the list just taken; a list too large to keep still raises the generation (with no entries). */
static void kept_write(const EntryList *l, const EntryList *kept) {
        _cleanup_ffree_ uint8_t *data = NULL;
        size_t size;
        int r;

        if (kept && kept->meta.generation == l->meta.generation && kept->meta.made == l->meta.made &&
            kept->meta.max_age == l->meta.max_age && kept->entries_size == l->entries_size &&
            fmemcmp(kept->entries, l->entries, l->entries_size) == 0)
                return;         /* unchanged: spare the flash */
        r = rollout_list_cache_make(&l->meta, l->entries, l->entries_size, KEPT_MAX, &data, &size);
        if (r == -E2BIG) {
                log_efi_info("the entry list's .entries (%zu bytes) are too large to keep; only its generation is kept",
                             l->entries_size);
                r = rollout_list_cache_make(&l->meta, NULL, 0, KEPT_MAX, &data, &size);
        }
        if (r < 0 || RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT_KEPT, &urlboot_vendor_guid,
                                     EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS, size, data) != EFI_SUCCESS)
                log_efi_info("cannot keep the entry list of generation %llu (" URLBOOT_VAR_ROLLOUT_KEPT "): an older "
                             "one could be taken next time", (unsigned long long) l->meta.generation);
}

static void export_list_info(const RolloutListInfo *info) {
        char text[ROLLOUT_LIST_INFO_MAX];
        size_t n = rollout_list_info_format(info, text, sizeof text);

        (void) RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT_LIST, &urlboot_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT, n, text);
}

/* Which list to offer: the fetched one when it is not older than the kept one; else the kept one. */
static const EntryList *list_choose(const char *url, int fetched_r, const EntryList *fetched, int kept_r,
                                    const EntryList *kept, RolloutListInfo *info) {
        uint64_t floor = kept_r >= 0 ? kept->meta.generation : 0;

        if (fetched_r >= 0 && rollout_list_newer_or_same(floor, &fetched->meta)) {
                *info = (RolloutListInfo) { .meta = fetched->meta, .source = ROLLOUT_LIST_FETCHED };
                return fetched;
        }
        if (fetched_r >= 0)
                log_efi_info("%s: entry list generation %llu is older than generation %llu, which this machine took "
                             "before; refused (a replayed list?)", url, (unsigned long long) fetched->meta.generation,
                             (unsigned long long) floor);
        if (kept_r < 0)
                return NULL;
        log_efi_info("offering the versions of entry list generation %llu, kept from an earlier boot",
                     (unsigned long long) kept->meta.generation);
        *info = (RolloutListInfo) {
                .meta = kept->meta,
                .source = fetched_r >= 0 ? ROLLOUT_LIST_KEPT_REFUSED : ROLLOUT_LIST_KEPT,
                .refused = fetched_r >= 0 ? fetched->meta.generation : 0,
        };
        return kept;
}

void rollout_collect(Menu *m, EFI_HANDLE image) {
        _cleanup_ffree_ char *url = NULL;
        EntryList fetched = {}, kept = {};
        RolloutListInfo info;
        const EntryList *use;
        int fr = -ENOENT, kr;

        fassert(m);

        if (!m->conf.rollout_entries)
                return;
        kept_reset_if_asked();
        kr = kept_read(&kept);
        url = list_url(m);
        if (!url || !url_is_http(url) || !url_is_printable(url))
                log_efi_info("urlboot-entries %s: not a URL that can be requested", m->conf.rollout_entries);
        else
                fr = list_fetch(m, image, url, &fetched);
        use = list_choose(url ?: m->conf.rollout_entries, fr, &fetched, kr, &kept, &info);
        if (use) {
                if (use == &fetched)
                        kept_write(&fetched, kr >= 0 ? &kept : NULL);
                entries_add_section(m, use->entries, use->entries_size, true);
                export_list_info(&info);
                entries_sort(m);
        }
        entry_list_done(&fetched);
        entry_list_done(&kept);
}

/* The rollout's entries' IDs, newest first (the menu's order), their places in the menu and whether each
 * was tried in this boot. */
static size_t rollout_ids(Menu *m, const char **ids, unsigned *index, bool *tried) {
        size_t n = 0;

        for (unsigned i = 0; i < m->n && n < ROLLOUT_ENTRIES_MAX; i++)
                if (m->entries[i].rollout) {
                        ids[n] = m->entries[i].bls->id;
                        tried[n] = m->rollout.tried[i];
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

/* The store as it is, without what the server no longer offers (so it stays bounded). */
static size_t store_load_pruned(Menu *m, RolloutStore *s, const char **ids, unsigned *where, bool *tried) {
        size_t n = rollout_ids(m, ids, where, tried);

        store_read(s);
        rollout_store_prune(s, ids, n);
        return n;
}

bool rollout_default(Menu *m, unsigned *index) {
        const char *ids[ROLLOUT_ENTRIES_MAX];
        unsigned where[ROLLOUT_ENTRIES_MAX];
        bool tried[ROLLOUT_ENTRIES_MAX];
        static RolloutStore s;
        RolloutChoice c;
        size_t n;

        fassert(m);
        fassert(index);

        m->rollout.chose = false;
        n = store_load_pruned(m, &s, ids, where, tried);
        if (n == 0)
                return false;
        rollout_choose(ids, n, &s, tried, &c);
        if (c.index < 0) {
                log_efi_info("every version offered has used up its tries or could not be fetched; booting the menu's "
                             "default");
                return false;
        }
        rollout_choice_why(&c, ids, m->rollout.why, sizeof m->rollout.why);
        if (c.reason == ROLLOUT_REASON_FALLBACK)
                log_efi_info("%s: %s", ids[c.index], m->rollout.why);
        *index = where[c.index];
        m->rollout.chose = true;
        m->rollout.chosen = *index;
        return true;
}

static unsigned entry_tries(Menu *m, BootEntry *e) {
        /* "+N" in the entry's file name (image-43+2.conf) gives this version its own number of tries */
        return e->bls->tries_left >= 0 ? (unsigned) e->bls->tries_left : m->conf.rollout_tries;
}

void rollout_note_fetch_failure(Menu *m, unsigned index) {
        const char *ids[ROLLOUT_ENTRIES_MAX];
        unsigned where[ROLLOUT_ENTRIES_MAX];
        bool tried[ROLLOUT_ENTRIES_MAX];
        static RolloutStore s;
        BootEntry *e = &m->entries[index];
        RolloutRecord *r;

        fassert(m);

        m->rollout.tried[index] = true;
        (void) store_load_pruned(m, &s, ids, where, tried);
        if (rollout_fetch_failed(&s, e->bls->id, entry_tries(m, e)) < 0 || store_write(&s) != EFI_SUCCESS) {
                log_efi_info("cannot record the failed fetch of %s (" URLBOOT_VAR_ROLLOUT ")", e->bls->id);
                return;
        }
        r = rollout_store_find(&s, e->bls->id);
        if (r && r->state == ROLLOUT_TRIAL)
                log_efi_info("%s: its UKI could not be fetched or was refused (%u of %u times in a row); no try is "
                             "counted", e->bls->id, r->fetch_failures, ROLLOUT_FETCH_FAILURES_MAX);
}

/* "ID\nSTATE\nWHY\nPIN" for the booted system (urlbootctl status): what runs, why, and what it pins. */
static void export_choice(BootEntry *e, const RolloutRecord *r, const char *why) {
        static RolloutRunning run;
        static char text[ROLLOUT_RUNNING_MAX];
        size_t n;

        run = (RolloutRunning) { .state = r->state };
        fmemcpy(run.id, e->bls->id, fstrlen(e->bls->id) + 1);
        fsnprintf(run.why, sizeof run.why, "%s", why);
        if (e->bls->pin)
                fmemcpy(run.pin, e->bls->pin, sizeof run.pin);
        n = rollout_running_format(&run, text, sizeof text);
        (void) RT->SetVariable(L"" URLBOOT_VAR_ROLLOUT_CHOICE, &urlboot_vendor_guid, EFI_VARIABLE_VOLATILE_DEFAULT, n, text);
}

/* The cmdline the version will run with: its UKI's own (of its profile), else the options it is given. */
static bool hands_watchdog_over(BootEntry *e, EFI_HANDLE child) {
        EFI_LOADED_IMAGE *li = NULL;
        const uint8_t *d;
        size_t n;
        unsigned profile = 0;

        if (BS->HandleProtocol(child, &LoadedImageProtocol, (void **) &li) != EFI_SUCCESS || !li)
                return false;
        for (const char *p = e->bls->profile; p && *p; p++)
                profile = profile * 10 + (unsigned) (*p - '0');
        if (pe_find_profile_section(li->ImageBase, li->ImageSize, profile, ".cmdline", true, &d, &n) >= 0)
                return trial_watchdog_cmdline_hands_over((const char *) d, n);
        return e->bls->options && trial_watchdog_cmdline_hands_over(e->bls->options, fstrlen(e->bls->options));
}

static void arm_watchdog(Menu *m, BootEntry *e, EFI_HANDLE child) {
        const char *name = NULL;
        EFI_STATUS s;

        if (m->conf.rollout_watchdog == 0)
                return;
        if (!hands_watchdog_over(e, child)) {
                log_efi_info("%s: its command line has no systemd.watchdog_sec=, so no watchdog covers this trial (a "
                             "panic or hang before its system runs would stop the machine)", e->bls->id);
                return;
        }
        s = watchdog_arm_locked(m->conf.rollout_watchdog, &name);
        if (s == EFI_NOT_FOUND)
                log_efi_info("%s: this machine has no hardware watchdog the boot manager drives: a panic or hang before "
                             "its system runs would stop the machine", e->bls->id);
        else if (EFI_ERROR(s))
                (void) log_efi(s, "%s: cannot arm the hardware watchdog", e->bls->id);
        else
                log_efi_info("%s: the hardware watchdog (%s, locked) resets the machine unless systemd feeds it within "
                             "%u s", e->bls->id, name, m->conf.rollout_watchdog);
}

void rollout_starting(Menu *m, BootEntry *e, EFI_HANDLE child) {
        const char *ids[ROLLOUT_ENTRIES_MAX];
        unsigned where[ROLLOUT_ENTRIES_MAX];
        bool tried[ROLLOUT_ENTRIES_MAX];
        static RolloutStore s;
        RolloutRecord *r;
        unsigned index = (unsigned) (e - m->entries);

        fassert(m);
        fassert(e);

        if (!e->rollout)
                return;
        (void) store_load_pruned(m, &s, ids, where, tried);
        if (rollout_count_start(&s, e->bls->id, entry_tries(m, e)) < 0)
                log_efi_info("%s has no tries left, started by hand", e->bls->id);
        if (store_write(&s) != EFI_SUCCESS)
                log_efi_info("cannot record this start of %s (" URLBOOT_VAR_ROLLOUT "); booting anyway", e->bls->id);
        r = rollout_store_find(&s, e->bls->id);
        if (!r)
                return;
        if (r->state == ROLLOUT_TRIAL) {
                log_efi_info("%s is on trial: start %u, %u tries left", e->bls->id, r->tries_done, r->tries_left);
                arm_watchdog(m, e, child);
        }
        export_choice(e, r, m->rollout.chose && m->rollout.chosen == index ? m->rollout.why : "chosen in the menu");
}
