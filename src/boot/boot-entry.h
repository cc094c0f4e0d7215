/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The boot manager's menu: its entries (BootEntry), where they came from, the loader.conf in force and the
 * rollout of this boot. Collected by manager-entries.c and manager-rollout.c, shown by manager-menu.c,
 * started by manager-start.c; manager.c runs the whole.
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
