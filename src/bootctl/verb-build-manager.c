/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-manager: append .entries ("ID.conf=BODY" records, NUL-separated, the same form as
 * SMBIOS io.systemd.boot.entries-extra strings) and .loader (loader.conf text) to urlbootx64.efi.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bls.h"
#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "verb-build-manager.h"
#include "path-util.h"
#include "pe-writer.h"
#include "string-util.h"

#define FILE_MAX (64UL * 1024 * 1024)
#define CONF_MAX (64UL * 1024)
#define DEFAULT_MANAGER "/usr/lib/urlboot/efi/urlbootx64.efi"

static void help(void) {
        printf("Usage: urlbootctl build-manager --entry=FILE.conf... [--loader-conf=FILE]\n"
               "                                [--manager=FILE] --output=FILE\n"
               "\n"
               "Build Type #1 entries and a loader.conf into the boot manager, for booting it over\n"
               "HTTP where it has no file system: each --entry= file becomes a menu entry named after\n"
               "the file; --loader-conf= sets timeout, default, editor, reboot-on-error.\n"
               "Default boot manager: " DEFAULT_MANAGER ".\n");
}

/* Append "NAME=BODY\0" to the .entries buffer, after checking that the entry parses. */
static int add_entry(const char *path, char **buf, size_t *size) {
        _cleanup_free_ char *text = NULL, *name = NULL;
        BlsEntry *e = NULL;
        size_t n, nl;
        char *grown;
        int r;

        r = read_full_file(path, CONF_MAX, &text, &n);
        if (r < 0)
                return log_error_errno(r, "Failed to read the entry %s: %m", path);
        r = path_extract_filename(path, &name);
        if (r < 0)
                return log_error_errno(r, "No file name in %s.", path);
        if (memchr(text, 0, n) || strchr(name, '='))
                return log_error_errno(EINVAL, "%s: entries are text without NUL bytes, names without '='.", path);
        r = bls_entry_parse(name, text, n, &e);
        bls_entry_free(e);
        if (r < 0)
                return log_error_errno(EINVAL, "%s names no (or more than one) thing to boot: linux, efi, uki or uki-url.",
                                       path);
        nl = strlen(name);
        grown = realloc(*buf, *size + nl + 1 + n + 1);
        if (!grown)
                return log_oom();
        memcpy(grown + *size, name, nl);
        grown[*size + nl] = '=';
        memcpy(grown + *size + nl + 1, text, n);
        grown[*size + nl + 1 + n] = 0;
        *buf = grown;
        *size += nl + 1 + n + 1;
        return 0;
}

int verb_build_manager(int argc, char *argv[]) {
        enum { ARG_ENTRY = 0x100, ARG_LOADER_CONF, ARG_MANAGER, ARG_OUTPUT };
        static const struct option options[] = {
                { "entry", required_argument, NULL, ARG_ENTRY },
                { "loader-conf", required_argument, NULL, ARG_LOADER_CONF },
                { "manager", required_argument, NULL, ARG_MANAGER },
                { "output", required_argument, NULL, ARG_OUTPUT },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        const char *manager = DEFAULT_MANAGER, *output = NULL, *loader_conf = NULL;
        _cleanup_free_ char *entries = NULL, *image = NULL, *conf = NULL;
        size_t entries_size = 0, image_size, conf_size = 0, out_size, n = 0;
        PeNewSection sections[2];
        char error[256];
        void *out = NULL;
        int c, r;

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        help();
                        return 0;
                case ARG_ENTRY:
                        r = add_entry(optarg, &entries, &entries_size);
                        if (r < 0)
                                return r == -ENOMEM ? r : -EIO;
                        break;
                case ARG_LOADER_CONF:
                        loader_conf = optarg;
                        break;
                case ARG_MANAGER:
                        manager = optarg;
                        break;
                case ARG_OUTPUT:
                        output = optarg;
                        break;
                default:
                        return -EINVAL;
                }
        if (!output || (!entries && !loader_conf))
                return log_error_errno(EINVAL, "build-manager needs --output= and at least one --entry= or --loader-conf= "
                                               "(see 'urlbootctl build-manager --help').");
        if (loader_conf && (r = read_full_file(loader_conf, CONF_MAX, &conf, &conf_size)) < 0)
                return log_error_errno(r, "Failed to read %s: %m", loader_conf);
        r = read_full_file(manager, FILE_MAX, &image, &image_size);
        if (r < 0)
                return log_error_errno(r, "Failed to read the boot manager %s: %m", manager);

        if (entries)
                sections[n++] = (PeNewSection) { ".entries", entries, entries_size };
        if (conf)
                sections[n++] = (PeNewSection) { ".loader", conf, conf_size };
        r = pe_append_sections(image, image_size, sections, n, &out, &out_size, error, sizeof error);
        if (r < 0)
                return log_error_errno(r, "Cannot add sections to %s: %s.", manager, error);
        r = write_file_atomic(output, out, out_size, 0644);
        free(out);
        if (r < 0)
                return log_error_errno(r, "Failed to write %s: %m", output);
        log_info("Wrote %s (%zu bytes).", output, out_size);
        return 0;
}
