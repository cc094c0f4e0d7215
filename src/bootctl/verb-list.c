/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl list: the entries the boot manager would show, in its order, as bootctl list does.
 *
 * Type #1 files from loader/entries and Type #2 UKIs from EFI/Linux (title and version from their
 * .osrel, options from .cmdline), on the ESP and on the XBOOTLDR partition, then SMBIOS type 11
 * entries from the kernel's DMI tables (/sys/firmware/dmi/entries/11-*\/raw). Parsing, order, the
 * titles made unique and the default (LoaderEntryOneShot, LoaderEntryDefault, loader.conf) are the
 * boot manager's own code (src/fundamental/bls.c, bls-menu.c, loader-conf.c, smbios.c, pe-image.c).
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <unistd.h>

#include "bls-menu.h"
#include "bls.h"
#include "efivars.h"
#include "fileio.h"
#include "json-writer.h"
#include "verb-list.h"
#include "loader-conf.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "path-util.h"
#include "pe-image.h"
#include "smbios.h"
#include "string-util.h"
#include "uki-entry.h"
#include "url.h"

#define ENTRIES_MAX 256
#define FILE_MAX (256 * 1024 * 1024)

typedef struct Item {
        BlsEntry *entry;
        const char *source;     /* "esp", "xbootldr", "smbios" */
        bool type2;
} Item;

typedef struct List {
        Item items[ENTRIES_MAX];
        size_t n;
} List;

/* What the boot loader and the OS said in EFI variables (all may be NULL). */
typedef struct Pointers {
        char *oneshot, *default_entry, *last_booted, *selected, *loader_url;
} Pointers;

static void add(List *l, BlsEntry *e, const char *source, bool type2) {
        if (l->n >= ENTRIES_MAX) {
                bls_entry_free(e);
                return;
        }
        l->items[l->n++] = (Item) { e, source, type2 };
}

/* root/sub as the FAT file system would find it, whatever the case of its names (also on a host copy). */
static DIR *open_caseless(const char *root, const char *sub, char **ret_dir) {
        return path_join_caseless(root, sub, ret_dir) >= 0 ? opendir(*ret_dir) : NULL;
}

static void scan_type1(List *l, const char *root, const char *source) {
        _cleanup_free_ char *dir = NULL;
        struct dirent *de;
        DIR *d = open_caseless(root, "loader/entries", &dir);

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
                add(l, e, source, false);
        }
        closedir(d);
}

static void scan_type2(List *l, const char *root, const char *source) {
        _cleanup_free_ char *dir = NULL;
        struct dirent *de;
        DIR *d = open_caseless(root, "EFI/Linux", &dir);

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
                        add(l, e[i], source, true);
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
                add(l, e, "smbios", false);
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

/* The default pattern of ROOT/loader/loader.conf, or NULL. */
static char *loader_conf_default(const char *root) {
        _cleanup_free_ char *p = root ? path_join(root, "loader/loader.conf") : NULL, *text = NULL;
        LoaderConf c;
        char *pattern;
        size_t n;

        if (!p || read_full_file(p, 64 * 1024, &text, &n) < 0)
                return NULL;
        loader_conf_init(&c);
        if (loader_conf_parse(&c, text, n) < 0) {
                loader_conf_done(&c);
                return NULL;
        }
        pattern = TAKE_PTR(c.default_pattern);
        loader_conf_done(&c);
        return pattern;
}

static void pointers_read(Pointers *p) {
        (void) efi_get_variable_string("LoaderEntryOneShot", EFI_VENDOR_LOADER_STR, &p->oneshot);
        (void) efi_get_variable_string("LoaderEntryDefault", EFI_VENDOR_LOADER_STR, &p->default_entry);
        (void) efi_get_variable_string("LoaderEntryLastBooted", EFI_VENDOR_LOADER_STR, &p->last_booted);
        (void) efi_get_variable_string("LoaderEntrySelected", EFI_VENDOR_LOADER_STR, &p->selected);
        (void) efi_get_variable_string("LoaderDeviceURL", EFI_VENDOR_LOADER_STR, &p->loader_url);
}

static void pointers_done(Pointers *p) {
        free(p->oneshot);
        free(p->default_entry);
        free(p->last_booted);
        free(p->selected);
        free(p->loader_url);
}

static void json_write_int_or_null(const char *key, int v) {
        json_write_key(stdout, key, false);
        if (v < 0)
                fputs("null", stdout);
        else
                printf("%d", v);
}

static void print_json(const Item *it, const char *show_title, const char *t, bool is_default, bool is_selected) {
        const BlsEntry *e = it->entry;

        putchar('{');
        json_write_key(stdout, "id", true);
        json_write_string(stdout, e->id);
        json_write_key(stdout, "title", false);
        json_write_string(stdout, e->title);
        json_write_key(stdout, "showTitle", false);
        json_write_string(stdout, show_title);
        json_write_key(stdout, "version", false);
        json_write_string(stdout, e->version);
        json_write_key(stdout, "sortKey", false);
        json_write_string(stdout, e->sort_key);
        json_write_key(stdout, "machineId", false);
        json_write_string(stdout, e->machine_id);
        json_write_key(stdout, "source", false);
        json_write_string(stdout, it->source);
        json_write_key(stdout, "entryType", false);
        json_write_string(stdout, it->type2 ? "type2" : "type1");
        json_write_key(stdout, "type", false);
        json_write_string(stdout, kind_name(e->kind));
        json_write_key(stdout, "path", false);
        json_write_string(stdout, e->path);
        json_write_key(stdout, "target", false);
        json_write_string(stdout, t);
        json_write_key(stdout, "options", false);
        json_write_string(stdout, e->options);
        json_write_int_or_null("triesLeft", e->tries_left);
        json_write_int_or_null("triesDone", e->tries_done);
        printf(",\"isDefault\":%s,\"isSelected\":%s}", is_default ? "true" : "false", is_selected ? "true" : "false");
}

static void print_text(const Item *it, const char *show_title, const char *t, bool is_default, bool is_selected) {
        const BlsEntry *e = it->entry;

        printf("%s%s%s\n", show_title, is_default ? " (default)" : "", is_selected ? " (selected)" : "");
        printf("        id: %s\n    source: %s (Type #%d)\n", e->id, it->source, it->type2 ? 2 : 1);
        if (e->version)
                printf("   version: %s\n", e->version);
        if (e->tries_left >= 0)
                printf("     tries: %d left, %d done\n", e->tries_left, MAX(e->tries_done, 0));
        printf("  %8s: %s%s%s\n", kind_name(e->kind), e->path, t && !streq(t, e->path) ? " -> " : "",
               t && !streq(t, e->path) ? t : "");
        if (e->kind == BLS_KIND_UKI_URL && !t)
                printf("            (hidden: relative, and this boot has no LoaderDeviceURL)\n");
        if (e->options)
                printf("   options: %s\n", e->options);
}

/* The ESP and XBOOTLDR the user did not name: the first of /efi, /boot/efi, /boot with a loader
 * directory; /boot as XBOOTLDR when it has entries and is not the ESP. */
static void guess_partitions(const char **esp, const char **xbootldr) {
        static const char *const guesses[] = { "/efi", "/boot/efi", "/boot" };

        for (size_t i = 0; i < ELEMENTSOF(guesses) && !*esp; i++) {
                _cleanup_free_ char *p = path_join(guesses[i], "loader");
                if (p && access(p, F_OK) == 0)
                        *esp = guesses[i];
        }
        if (!*xbootldr && *esp && !streq(*esp, "/boot") &&
            (access("/boot/loader/entries", F_OK) == 0 || access("/boot/EFI/Linux", F_OK) == 0))
                *xbootldr = "/boot";
}

static int print_list(List *l, const char *esp, const Pointers *ptr, bool json) {
        BlsEntry *entries[ENTRIES_MAX];
        char *titles[ENTRIES_MAX];
        _cleanup_free_ char *conf_default = loader_conf_default(esp);
        unsigned def = 0;

        for (size_t i = 0; i < l->n; i++)
                entries[i] = l->items[i].entry;
        if (bls_titles_make(entries, (unsigned) l->n, titles) < 0)
                return log_oom();
        if (l->n > 0) {
                BlsDefaultRequest req = { .oneshot = ptr->oneshot, .variable = ptr->default_entry,
                                          .conf = conf_default, .saved = ptr->last_booted };
                def = bls_pick_default(entries, (unsigned) l->n, &req);
        }

        if (json)
                putchar('[');
        for (size_t i = 0; i < l->n; i++) {
                BlsEntry *e = entries[i];
                _cleanup_free_ char *t = target(e, ptr->loader_url);
                bool selected = ptr->selected && strcasecmp(ptr->selected, e->id) == 0;

                if (json) {
                        if (i > 0)
                                putchar(',');
                        print_json(l->items + i, titles[i], t, i == def, selected);
                } else {
                        if (i > 0)
                                putchar('\n');
                        print_text(l->items + i, titles[i], t, i == def, selected);
                }
                free(titles[i]);
        }
        if (json)
                puts("]");
        else if (l->n == 0)
                printf("No boot entries found%s%s.\n", esp ? " in " : " (no ESP found)", esp ?: "");
        return 0;
}

/* Every entry the boot manager would load, in its load order (ESP, XBOOTLDR, SMBIOS), then sorted into the
 * menu order. NULL only when out of memory. */
static List *list_load(const char *esp, const char *xbootldr) {
        List *l = calloc(1, sizeof *l);

        if (!l)
                return NULL;
        if (esp) {
                scan_type2(l, esp, "esp");
                scan_type1(l, esp, "esp");
        }
        if (xbootldr) {
                scan_type2(l, xbootldr, "xbootldr");
                scan_type1(l, xbootldr, "xbootldr");
        }
        scan_smbios(l);
        qsort(l->items, l->n, sizeof(Item), compare_items);
        return l;
}

static void list_free(List *l) {
        for (size_t i = 0; i < l->n; i++)
                bls_entry_free(l->items[i].entry);
        free(l);
}

/* errno says why not, 0 when it is something else than a directory */
static bool is_directory(const char *path) {
        struct stat st;

        if (stat(path, &st) < 0)
                return false;
        errno = 0;
        return S_ISDIR(st.st_mode);
}

enum { ARG_JSON = 0x100, ARG_ESP, ARG_BOOT };

static const OptionRow list_options[] = {
        OPTION_ROW_HELP,
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "print the entries as JSON", NULL },
        { "esp-path", 0, ARG_ESP, OPTION_REQUIRED, "DIR", "where the ESP is mounted", "dir" },
        { "esp", 0, ARG_ESP, OPTION_REQUIRED, "DIR", NULL, "dir" },
        { "boot-path", 0, ARG_BOOT, OPTION_REQUIRED, "DIR", "where the XBOOTLDR partition is mounted", "dir" },
};

const CommandTable verb_list_table = {
        .name = "urlbootctl list",
        .summary = "The entries urlboot's boot manager would show, in its order: Type #1 files and\n"
                   "Type #2 UKIs from the ESP (default: /efi, /boot/efi or /boot) and the XBOOTLDR\n"
                   "partition (default: /boot, when it is not the ESP), and SMBIOS type 11 entries;\n"
                   "the default (LoaderEntryOneShot, LoaderEntryDefault, loader.conf) and the titles\n"
                   "made unique as in the menu. Relative uki-url entries are resolved against\n"
                   "LoaderDeviceURL.",
        .options = list_options,
        .n_options = ELEMENTSOF(list_options),
};

int verb_list(int argc, char *argv[], const void *data) {
        const char *esp = NULL, *xbootldr = NULL;
        Pointers ptr = {};
        OptionParser p;
        bool json = false;
        char **args;
        int nargs;
        List *l;
        int c, r;

        assert(argv);

        if (option_parser_init(&p, &verb_list_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h': option_parser_done(&p); return command_table_help(&verb_list_table, stdout);
                case ARG_JSON: json = true; break;
                case ARG_ESP: esp = p.argument; break;
                case ARG_BOOT: xbootldr = p.argument; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        /* as bootctl: a path given must be there (else the list is silently empty) */
        if (esp && !is_directory(esp))
                return log_error_errno(errno ?: ENOTDIR, "--esp-path=%s: %m; give the directory the ESP is mounted on.",
                                       esp);
        if (xbootldr && !is_directory(xbootldr))
                return log_error_errno(errno ?: ENOTDIR, "--boot-path=%s: %m; give the directory the XBOOTLDR "
                                       "partition is mounted on.", xbootldr);
        if (!esp)
                guess_partitions(&esp, &xbootldr);

        l = list_load(esp, xbootldr);
        if (!l)
                return log_oom();
        pointers_read(&ptr);

        r = print_list(l, esp, &ptr, json);

        pointers_done(&ptr);
        list_free(l);
        return r;
}
