/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Boot Loader Specification Type #1 entries: parsing, IDs, boot counters, order.
 *
 * One entry per text: "KEY VALUE" lines, "#" comments. initrd and options may repeat (options are
 * joined with spaces). An entry names exactly one thing to boot: linux, efi, uki or uki-url;
 * more than one makes it invalid. A uki-url value starting with ":" is relative to the URL the boot
 * manager was loaded from (its last component replaced).
 *
 * urlboot's own key "urlboot-sha256 HEX" (64 lowercase hex digits) pins the image the entry starts (the UKI
 * of uki and uki-url, the program of efi, the kernel of linux): the boot manager refuses other bytes before
 * LoadImage(). systemd-boot ignores the key, as the specification asks for keys it does not know.
 */
#pragma once

#include "macro-fundamental.h"

#define BLS_INITRDS_MAX 16

typedef enum BlsKind {
        BLS_KIND_NONE,
        BLS_KIND_LINUX,
        BLS_KIND_EFI,
        BLS_KIND_UKI,
        BLS_KIND_UKI_URL,
} BlsKind;

typedef struct BlsEntry {
        char *id;               /* file name without ".conf" and without the boot counter */
        char *title, *version, *machine_id, *sort_key, *architecture, *devicetree;
        char *options;          /* all options lines, joined */
        char *path;             /* linux, efi, uki or uki-url value */
        char *profile;          /* "profile N": which profile of a multi-profile UKI, or NULL */
        char *pin;              /* "urlboot-sha256 HEX": the SHA-256 its image must have, or NULL */
        BlsKind kind;
        bool options_implied;   /* Type #2: options shown from .cmdline, not passed (the UKI applies them) */
        char *initrds[BLS_INITRDS_MAX];
        unsigned n_initrds;
        int tries_left, tries_done; /* -1 when the file name has no counter */
} BlsEntry;

void bls_entry_free(BlsEntry *e);

static inline void bls_entry_freep(BlsEntry **e) {
        bls_entry_free(*e);
}

/**
 * Parse an entry.
 * @v filename  "ID[+LEFT[-DONE]].conf" (or just "ID")
 * @ret 0, -EBADMSG when the entry names no or several things to boot, -EINVAL when its urlboot-sha256 is
 *      not a digest (a pin that cannot hold must not leave the entry unpinned), -ENOMEM
 */
int bls_entry_parse(const char *filename, const char *text, size_t size, BlsEntry **ret);

/**
 * The entry ID of a file name: lowercased, without the boot counter ("Foo+3-1.conf" is "foo.conf"),
 * and its counters (-1 when the name has none).
 */
int bls_id_from_filename(const char *filename, char **ret_id, int *ret_left, int *ret_done);

/** Where the counter "+LEFT[-DONE]" sits in a file name that ends in .conf or .efi (any case). */
typedef struct BlsCounter {
        size_t prefix_len;      /* length of the name before the '+' */
        const char *suffix;     /* ".conf" or ".efi" in the name */
        int tries_left, tries_done;
} BlsCounter;

/** @ret 1 with a counter, 0 without one, -ERANGE when a number is above INT_MAX */
int bls_counter_parse(const char *filename, BlsCounter *ret);

/**
 * The name a file gets when it is started once more: "foo+3.conf" is "foo+2-1.conf".
 * @ret 0, -ENOENT when the name has no counter or no tries left, -ERANGE, -ENOMEM
 */
int bls_counter_next_filename(const char *filename, char **ret);

/**
 * Whether a file in \\loader\\entries (suffix ".conf") or \\EFI\\Linux (".efi") is an entry: the suffix in
 * any case, not hidden ("."), not "auto-*".
 */
bool bls_filename_valid(const char *name, const char *suffix);

/** Whether the entry's "architecture" (if any) is arch, compared case-insensitively. */
bool bls_entry_for_architecture(const BlsEntry *e, const char *arch);

/** An entry's path as a UEFI file path: '/' turned into '\\', runs of separators collapsed. */
char *bls_path_to_efi(const char *path);

/**
 * systemd's menu order: entries out of tries last; sort-key entries first (by sort-key, machine-id,
 * newest version); then by ID (newest first), profile, tries left (more first), tries done (fewer first).
 */
int bls_entry_compare(const BlsEntry *a, const BlsEntry *b);

/**
 * The load options to start the entry with: "@N " (the UKI profile selector) when it has "profile N",
 * then its options. NULL when there are none, or when out of memory.
 */
char *bls_entry_load_options(const BlsEntry *e);

/** Glob match as loader.conf "default" and LoaderEntryDefault use it ("*", "?", "[...]"), case-insensitive. */
bool bls_glob_match(const char *pattern, const char *s);
