/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The boot manager's state, shared by its parts: manager-entries.c collects the menu, manager-menu.c shows it,
 * manager-start.c starts the chosen entry, manager.c runs the whole.
 */
#pragma once

#include <efi.h>

#include "bls.h"
#include "loader-conf.h"

#define ENTRIES_MAX 128

typedef struct BootEntry {
        BlsEntry *bls;
        EFI_HANDLE device;      /* the volume it came from; NULL for SMBIOS and built-in entries */
        const CHAR16 *dir;      /* its directory there (for the counter rename), or NULL */
        char *filename;         /* its file name there, or NULL */
        char *title;            /* the title shown, unique in the menu */
        bool rollout;           /* from the rollout's entry list: counted in UrlbootRollout (rollout.h) */
} BootEntry;

/* A rollout in this boot: which versions' UKIs could not be fetched (or were refused), and why the one being
 * started was chosen. */
typedef struct RolloutBoot {
        bool chose;                     /* the rollout chose the default entry: chosen */
        unsigned chosen;
        bool tried[ENTRIES_MAX];        /* per menu index: fetched in this boot and failed */
        char why[320];                  /* "newest version", "fallback: ID used up its tries", ... */
} RolloutBoot;

typedef struct Menu {
        BootEntry entries[ENTRIES_MAX];
        unsigned n;
        char *own_url;          /* where we were loaded from, NULL without a network boot */
        char *own_path;         /* our own file path on our volume (text), to skip "efi" entries naming us */
        EFI_HANDLE own_device;
        LoaderConf conf;
        bool have_volume;       /* whether we were started from a file system */
        bool save_entry;        /* "@saved" is in use: remember the started entry (LoaderEntryLastBooted) */
        const void *tls_ca;     /* the CA lists pinned for https (our .tlsca section), or NULL */
        size_t tls_ca_size;
        RolloutBoot rollout;
} Menu;

/** Read loader.conf (our volume, else our .loader section) and every entry source, then sort. */
void entries_collect(Menu *m, EFI_LOADED_IMAGE *li);

/** Add the "ID.conf=BODY" records of an .entries section (NUL-separated); rollout marks them so. */
void entries_add_section(Menu *m, const uint8_t *d, size_t n, bool rollout);

/** Sort the menu in systemd-boot's order (bls_entry_compare()). */
void entries_sort(Menu *m);

/**
 * A rollout (loader.conf "urlboot-entries URL"): fetch the entry list the server offers - a PE image with
 * .entries and .rollout sections, as urlbootctl build-manager --generation= makes it (rollout-list.h) - and
 * add its entries. It is trusted when LoadImage verified it (Secure Boot: db, or shim's keys) or it came over
 * https with our pinned CA; otherwise it is ignored with one line. A list of a lower generation than the one
 * this machine took last is refused, and so is one that cannot be fetched: the list kept then is offered.
 * Entries without a pin (urlboot-sha256) are skipped.
 */
void rollout_collect(Menu *m, EFI_HANDLE image);

/**
 * The rollout's choice among its entries that were not tried in this boot yet, as the default (*index);
 * logged. @ret whether it chose one
 */
bool rollout_default(Menu *m, unsigned *index);

/** A rollout entry's UKI could not be fetched, or its bytes were refused: no try, a fetch failure counted. */
void rollout_note_fetch_failure(Menu *m, unsigned index);

/**
 * Right before a rollout entry's verified UKI starts: count the start if it is on trial, say which runs and
 * why (with its pin), and arm the hardware watchdog for a version on trial whose command line hands it to
 * systemd (trial-watchdog.h).
 */
void rollout_starting(Menu *m, BootEntry *e, EFI_HANDLE child);

/** Give every entry its unique title. */
void entries_make_titles(Menu *m);

typedef struct MenuChoice {
        unsigned index;
        bool key_pressed;       /* somebody was at the keyboard */
        char *options;          /* edited options (with 'e'), or NULL to use the entry's */
} MenuChoice;

/** Set the text mode loader.conf's console-mode asks for ("auto" and "max": the largest). */
void console_apply_mode(const LoaderConf *conf);

/** Show the menu as the timeout asks and return the choice. */
MenuChoice menu_run(Menu *m, unsigned selected, uint32_t timeout);

/**
 * Count a start of the entry (rename its file), load it, and start it; returns only when that failed.
 * *ret_started says whether it got as far as StartImage() (a rollout's fetch failure did not).
 */
EFI_STATUS start_entry(Menu *m, EFI_HANDLE image, BootEntry *e, const char *options_override, bool *ret_started);

