/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl add-uri / remove-uri.
 *
 * Written through efivarfs (NV|BS|RT, global vendor), or with --vars-file= into an OVMF variable
 * store file, so a virtual machine can be told offline to boot from a URL.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "efivars.h"
#include "fileio.h"
#include "import-types.h"
#include "load-option.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "string-util.h"
#include "verb-uri.h"
#include "url.h"
#include "var-store.h"


#define SLOT_MAX 0xffff

/* The URL of Boot<slot> if it is a Uri() entry. @ret 1 with *ret_url, 0 if it is something else, -ENOENT */
static int slot_uri(Target *t, unsigned slot, char **ret_url) {
        _cleanup_free_ void *d = NULL;
        char name[16];
        size_t n;
        int r;

        snprintf(name, sizeof name, "Boot%04X", slot);
        r = target_get(t, name, &d, &n);
        if (r < 0)
                return -ENOENT;
        return load_option_get_uri(d, n, ret_url, NULL) >= 0 ? 1 : 0;
}

/* The slot to write url into: the one that boots url already, else the first free one. */
static int pick_slot(Target *t, const char *url, unsigned *ret, bool *ret_reused) {
        int free_slot = -1;

        for (unsigned slot = 0; slot <= SLOT_MAX; slot++) {
                _cleanup_free_ char *u = NULL;
                int r = slot_uri(t, slot, &u);

                if (r == -ENOENT) {
                        if (free_slot < 0)
                                free_slot = (int) slot;
                        continue;
                }
                if (r > 0 && streq(u, url)) {
                        *ret = slot;
                        *ret_reused = true;
                        return 0;
                }
        }
        if (free_slot < 0)
                return -ENOSPC;
        *ret = (unsigned) free_slot;
        *ret_reused = false;
        return 0;
}

/* BootOrder without slot (remove) or with it first/last. */
static int update_order_full(Target *t, unsigned slot, bool first, bool remove);

static int update_order(Target *t, unsigned slot, bool first) {
        return update_order_full(t, slot, first, false);
}

static int update_order_full(Target *t, unsigned slot, bool first, bool remove) {
        _cleanup_free_ uint16_t *old = NULL;
        _cleanup_free_ uint8_t *order = NULL;
        size_t n = 0, k = 0;
        void *d = NULL;

        if (target_get(t, "BootOrder", &d, &n) >= 0)
                old = d;
        n /= 2;
        order = malloc((n + 1) * 2);
        if (!order)
                return -ENOMEM;
        if (first && !remove) {
                order[k * 2] = (uint8_t) slot, order[k * 2 + 1] = (uint8_t) (slot >> 8), k++;
        }
        for (size_t i = 0; i < n; i++) {
                uint16_t v = (uint16_t) (((uint8_t *) old)[2 * i] | ((uint8_t *) old)[2 * i + 1] << 8);
                if (v == slot)
                        continue;
                order[k * 2] = (uint8_t) v, order[k * 2 + 1] = (uint8_t) (v >> 8), k++;
        }
        if (!first && !remove) {
                order[k * 2] = (uint8_t) slot, order[k * 2 + 1] = (uint8_t) (slot >> 8), k++;
        }
        if (remove && k == n)
                return 0; /* it was not in the order */
        return target_set(t, "BootOrder", order, k * 2);
}

typedef struct UriArgs {
        const char *title, *vars;
        bool next, first;
} UriArgs;

enum { ARG_TITLE = 0x100, ARG_NEXT, ARG_FIRST, ARG_VARS };

#define URI_SUMMARY                                                                                                    \
        "add-uri registers a boot entry (Boot####) whose device path is Uri(URL): the firmware\n"                      \
        "then HTTP-boots URL (a UKI or the urlboot boot manager). It takes the first free\n"                           \
        "slot and appends it to BootOrder; --first puts it first, --next boots it once\n"                              \
        "(BootNext) without changing BootOrder. --vars-file writes into an OVMF variable store\n"                      \
        "file instead of the running firmware's variables.\n"                                                          \
        "remove-uri removes the entries that boot URL (or Boot#### by its number NNNN, in hex)."

static const OptionRow add_uri_options[] = {
        OPTION_ROW_HELP,
        { "title", 0, ARG_TITLE, OPTION_REQUIRED, "TITLE", "the entry's description (default: the URL)", NULL },
        { "next", 0, ARG_NEXT, OPTION_SWITCH, NULL, "boot it once, at the next boot (BootNext)", NULL },
        { "first", 0, ARG_FIRST, OPTION_SWITCH, NULL, "put it first in BootOrder", NULL },
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE", "write into an OVMF variable store (OVMF_VARS*.fd)",
          "file" },
};

/* remove-uri has always taken add-uri's options (it shares its parser): accepted, not listed, no effect. */
static const OptionRow remove_uri_options[] = {
        OPTION_ROW_HELP,
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE", "write into an OVMF variable store (OVMF_VARS*.fd)",
          "file" },
        { "title", 0, ARG_TITLE, OPTION_REQUIRED, "TITLE", NULL, NULL },
        { "next", 0, ARG_NEXT, OPTION_SWITCH, NULL, NULL, NULL },
        { "first", 0, ARG_FIRST, OPTION_SWITCH, NULL, NULL, NULL },
};

const CommandTable verb_add_uri_table = {
        .name = "urlbootctl add-uri",
        .arguments = "URL",
        .summary = URI_SUMMARY,
        .options = add_uri_options,
        .n_options = ELEMENTSOF(add_uri_options),
        .min_arguments = 1,
        .max_arguments = 1,
};

const CommandTable verb_remove_uri_table = {
        .name = "urlbootctl remove-uri",
        .arguments = "URL|NNNN",
        .summary = URI_SUMMARY,
        .options = remove_uri_options,
        .n_options = ELEMENTSOF(remove_uri_options),
        .min_arguments = 1,
        .max_arguments = 1,
};

/* 0: run; 1: help printed; -EUSAGE: usage error (logged). */
static int parse_uri_args(int argc, char *argv[], const CommandTable *table, UriArgs *a, const char **ret_arg) {
        OptionParser p;
        char **args;
        int nargs, c, r;

        if (option_parser_init(&p, table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case ARG_TITLE: a->title = p.argument; break;
                case ARG_NEXT: a->next = true; break;
                case ARG_FIRST: a->first = true; break;
                case ARG_VARS: a->vars = p.argument; break;
                case 'h':
                        option_parser_done(&p);
                        (void) command_table_help(table, stdout);
                        return 1;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (a->next && a->first)
                return log_usage_error("--next and --first exclude each other.");
        *ret_arg = args[0];
        return 0;
}

int verb_add_uri(int argc, char *argv[], const void *data) {
        _cleanup_free_ void *option = NULL;
        UriArgs a = {};
        const char *url;
        size_t size;
        Target t;
        unsigned slot;
        bool reused;
        char name[16];
        int r;

        assert(argv);

        r = parse_uri_args(argc, argv, &verb_add_uri_table, &a, &url);
        if (r != 0)
                return r > 0 ? 0 : r;
        if (!url_is_http(url) || !import_url_is_valid(url))
                return log_usage_error("'%s' is not an http or https URL.", url);

        r = load_option_make_uri(a.title ?: url, url, &option, &size);
        if (r < 0)
                return log_error_errno(r, "Cannot encode a boot entry for %s: %m", url);
        r = target_open(&t, a.vars, EFI_VENDOR_GLOBAL_STR);
        if (r < 0)
                return r;

        /* Scripts run add-uri again and again: the entry for a URL is rewritten, never duplicated. */
        r = pick_slot(&t, url, &slot, &reused);
        if (r < 0) {
                target_close(&t);
                return log_error_errno(r, "No free Boot#### slot.");
        }
        snprintf(name, sizeof name, "Boot%04X", slot);
        r = target_set(&t, name, option, size);
        if (r >= 0 && a.next) {
                uint8_t next[2] = { (uint8_t) slot, (uint8_t) (slot >> 8) };
                r = target_set(&t, "BootNext", next, 2);
        } else if (r >= 0)
                r = update_order(&t, slot, a.first);
        if (r < 0 && !a.vars)
                log_error_errno(r, "Failed to write the boot entry: %m");
        if (target_close(&t) < 0 || r < 0)
                return r < 0 ? r : -EIO;
        printf("%s\n", name);
        if (reused)
                log_info("%s boots %s already; its entry was rewritten.", name, url);
        return 0;
}

/* Removes Boot<slot> if it boots what (a URL, or the slot number in hex). @ret 1 if removed */
static int remove_slot_if(Target *t, unsigned slot, const char *what) {
        _cleanup_free_ char *url = NULL;
        char name[16], hex[8];
        int r;

        snprintf(hex, sizeof hex, "%04X", slot);
        r = slot_uri(t, slot, &url);
        if (r <= 0 || !(streq(url, what) || strcasecmp(hex, what) == 0))
                return 0;
        snprintf(name, sizeof name, "Boot%04X", slot);
        r = target_set(t, name, NULL, 0);
        if (r >= 0)
                r = update_order_full(t, slot, false, true);
        if (r < 0)
                return r;
        printf("Removed %s (%s)\n", name, url);
        return 1;
}

int verb_remove_uri(int argc, char *argv[], const void *data) {
        UriArgs a = {};
        const char *what;
        Target t;
        int r, removed = 0;

        assert(argv);

        r = parse_uri_args(argc, argv, &verb_remove_uri_table, &a, &what);
        if (r != 0)
                return r > 0 ? 0 : r;
        r = target_open(&t, a.vars, EFI_VENDOR_GLOBAL_STR);
        if (r < 0)
                return r;

        /* Every slot: firmware numbers its own entries from anywhere (Boot2001 and up, say). */
        for (unsigned slot = 0; slot <= SLOT_MAX && r >= 0; slot++) {
                r = remove_slot_if(&t, slot, what);
                if (r > 0)
                        removed++;
        }
        if (r < 0) {
                target_close(&t);
                return log_error_errno(r, "Failed to remove the boot entry: %m");
        }
        r = target_close(&t);
        if (r < 0)
                return r;
        if (!removed)
                log_info("No boot entry for %s.", what);
        return 0;
}
