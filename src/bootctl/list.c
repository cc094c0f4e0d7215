/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl list: the entries the boot manager would show, in its order.
 *
 * Type #1 files from ESP/loader/entries, Type #2 UKIs from ESP/EFI/Linux (title and version from
 * their .osrel, options from .cmdline), and SMBIOS type 11 entries from the kernel's DMI tables
 * (/sys/firmware/dmi/entries/11-*\/raw). Parsing and order are the boot manager's own code
 * (src/fundamental/bls.c, smbios.c, pe-image.c).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bls.h"
#include "efivars.h"
#include "fileio.h"
#include "json-writer.h"
#include "list.h"
#include "log.h"
#include "macro.h"
#include "path-util.h"
#include "pe-image.h"
#include "smbios.h"
#include "uki-entry.h"
#include "string-util.h"
#include "url.h"

#define ENTRIES_MAX 256
#define FILE_MAX (256 * 1024 * 1024)

typedef struct Item {
        BlsEntry *entry;
        const char *source;     /* "esp", "uki", "smbios" */
} Item;

typedef struct List {
        Item items[ENTRIES_MAX];
        size_t n;
} List;

static void add(List *l, BlsEntry *e, const char *source) {
        if (l->n >= ENTRIES_MAX) {
                bls_entry_free(e);
                return;
        }
        l->items[l->n++] = (Item) { e, source };
}

static void scan_type1(List *l, const char *esp) {
        _cleanup_free_ char *dir = path_join(esp, "loader/entries");
        struct dirent *de;
        DIR *d = dir ? opendir(dir) : NULL;

        if (!d)
                return;
        while ((de = readdir(d))) {
                _cleanup_free_ char *p = NULL, *text = NULL;
                BlsEntry *e;
                size_t n;

                if (!bls_filename_valid(de->d_name, ".conf"))
                        continue;
                p = path_join(dir, de->d_name);
                if (!p || read_full_file(p, 64 * 1024, &text, &n) < 0)
                        continue;
                if (bls_entry_parse(de->d_name, text, n, &e) < 0) {
                        log_warning("Ignoring %s: it names no (or more than one) thing to boot.", p);
                        continue;
                }
                add(l, e, "esp");
        }
        closedir(d);
}

static void scan_type2(List *l, const char *esp) {
        _cleanup_free_ char *dir = path_join(esp, "EFI/Linux");
        struct dirent *de;
        DIR *d = dir ? opendir(dir) : NULL;

        if (!d)
                return;
        while ((de = readdir(d))) {
                _cleanup_free_ char *p = NULL, *image = NULL, *efi_path = NULL;
                BlsEntry *e[8];
                size_t size;
                int n;

                if (!bls_filename_valid(de->d_name, ".efi"))
                        continue;
                p = path_join(dir, de->d_name);
                if (!p || read_full_file(p, FILE_MAX, &image, &size) < 0)
                        continue;
                if (asprintf(&efi_path, "/EFI/Linux/%s", de->d_name) < 0)
                        continue;
                n = uki_entries_make(de->d_name, efi_path, image, size, false, e, ELEMENTSOF(e));
                for (int i = 0; i < n; i++)
                        add(l, e[i], "uki");
        }
        closedir(d);
}

static int on_oem_string(const char *s, size_t n, void *userdata) {
        List *l = userdata;
        const char *name, *body;
        size_t nl, bl;
        _cleanup_free_ char *fname = NULL;
        BlsEntry *e;

        if (!smbios_entry_split(s, n, &name, &nl, &body, &bl))
                return 0;
        fname = strndup(name, nl);
        if (fname && bls_entry_parse(fname, body, bl, &e) >= 0)
                add(l, e, "smbios");
        return 0;
}

static void scan_smbios(List *l) {
        const char *dir = getenv("URLBOOT_SMBIOS_DIR") ?: "/sys/firmware/dmi/entries";
        struct dirent *de;
        DIR *d = opendir(dir);

        if (!d)
                return;
        while ((de = readdir(d))) {
                _cleanup_free_ char *p = NULL, *raw = NULL;
                size_t n;

                if (!startswith(de->d_name, "11-"))
                        continue;
                if (asprintf(&p, "%s/%s/raw", dir, de->d_name) < 0 || read_full_file(p, 64 * 1024, &raw, &n) < 0)
                        continue;
                (void) smbios_oem_strings_foreach(raw, n, on_oem_string, l);
        }
        closedir(d);
}

static int compare_items(const void *a, const void *b) {
        return bls_entry_compare(((const Item *) a)->entry, ((const Item *) b)->entry);
}

static const char *kind_name(BlsKind k) {
        static const char *const n[] = { "none", "linux", "efi", "uki", "uki-url" };
        return n[k];
}

/* uki-url ":NAME" resolved against LoaderDeviceURL; NULL when relative with no URL. */
static char *target(const BlsEntry *e, const char *loader_url) {
        char *u = NULL;

        if (e->kind != BLS_KIND_UKI_URL || e->path[0] != ':')
                return strdup(e->path);
        if (!loader_url || url_change_last_component(loader_url, e->path + 1, &u) < 0)
                return NULL;
        return u;
}

int verb_list(int argc, char *argv[]) {
        static const struct option options[] = {
                { "json", no_argument, NULL, 'j' },
                { "esp", required_argument, NULL, 'e' },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        _cleanup_free_ char *loader_url = NULL;
        const char *esp = NULL;
        bool json = false;
        List *l;
        int c;

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case 'j': json = true; break;
                case 'e': esp = optarg; break;
                case 'h':
                        printf("Usage: urlbootctl list [--json] [--esp=DIR]\n\n"
                               "The entries urlboot's boot manager would show, in its order: Type #1 files and\n"
                               "Type #2 UKIs from the ESP (default: /efi, /boot/efi or /boot), and SMBIOS type 11\n"
                               "entries. Relative uki-url entries are resolved against LoaderDeviceURL.\n");
                        return 0;
                default: return -EINVAL;
                }
        if (!esp) {
                static const char *const guesses[] = { "/efi", "/boot/efi", "/boot" };
                for (size_t i = 0; i < ELEMENTSOF(guesses) && !esp; i++) {
                        _cleanup_free_ char *p = path_join(guesses[i], "loader");
                        if (p && access(p, F_OK) == 0)
                                esp = guesses[i];
                }
        }

        l = calloc(1, sizeof *l);
        if (!l)
                return log_oom();
        if (esp) {
                scan_type1(l, esp);
                scan_type2(l, esp);
        }
        scan_smbios(l);
        qsort(l->items, l->n, sizeof(Item), compare_items);
        (void) efi_get_variable_string("LoaderDeviceURL", EFI_VENDOR_LOADER_STR, &loader_url);

        if (json)
                putchar('[');
        for (size_t i = 0; i < l->n; i++) {
                BlsEntry *e = l->items[i].entry;
                _cleanup_free_ char *t = target(e, loader_url);

                if (json) {
                        printf("%s{", i ? "," : "");
                        json_write_key(stdout, "id", true);
                        json_write_string(stdout, e->id);
                        json_write_key(stdout, "title", false);
                        json_write_string(stdout, e->title);
                        json_write_key(stdout, "version", false);
                        json_write_string(stdout, e->version);
                        json_write_key(stdout, "source", false);
                        json_write_string(stdout, l->items[i].source);
                        json_write_key(stdout, "type", false);
                        json_write_string(stdout, kind_name(e->kind));
                        json_write_key(stdout, "path", false);
                        json_write_string(stdout, e->path);
                        json_write_key(stdout, "target", false);
                        json_write_string(stdout, t);
                        json_write_key(stdout, "options", false);
                        json_write_string(stdout, e->options);
                        putchar('}');
                } else {
                        printf("%s%s\n", i ? "\n" : "", e->title ?: e->id);
                        printf("        id: %s\n    source: %s\n", e->id, l->items[i].source);
                        if (e->version)
                                printf("   version: %s\n", e->version);
                        printf("  %8s: %s%s%s\n", kind_name(e->kind), e->path, t && !streq(t, e->path) ? " -> " : "",
                               t && !streq(t, e->path) ? t : "");
                        if (e->kind == BLS_KIND_UKI_URL && !t)
                                printf("            (hidden: relative, and this boot has no LoaderDeviceURL)\n");
                        if (e->options)
                                printf("   options: %s\n", e->options);
                }
        }
        if (json)
                puts("]");
        else if (l->n == 0)
                printf("No boot entries found%s%s.\n", esp ? " in " : " (no ESP found)", esp ?: "");
        for (size_t i = 0; i < l->n; i++)
                bls_entry_free(l->items[i].entry);
        free(l);
        return 0;
}
