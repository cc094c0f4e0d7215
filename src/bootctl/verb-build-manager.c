/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-manager: append .entries ("ID.conf=BODY" records, NUL-separated, the same form as
 * SMBIOS io.systemd.boot.entries-extra strings) and .loader (loader.conf text) to urlbootx64.efi.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bls.h"
#include "certificates.h"
#include "fileio.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "verb-build-manager.h"
#include "path-util.h"
#include "pe-sign.h"
#include "pe-writer.h"
#include "signature-list.h"
#include "string-util.h"

#define FILE_MAX (64UL * 1024 * 1024)
#define CONF_MAX (64UL * 1024)
#define DEFAULT_MANAGER "/usr/lib/urlboot/efi/urlbootx64.efi"

static void help(void) {
        printf("Usage: urlbootctl build-manager --entry=FILE.conf... [--loader-conf=FILE] [--ca=FILE]...\n"
               "                                [--manager=FILE] [--sign-key=KEY --sign-cert=CERT] --output=FILE\n"
               "\n"
               "Build Type #1 entries and a loader.conf into the boot manager, for booting it over\n"
               "HTTP where it has no file system: each --entry= file becomes a menu entry named after\n"
               "the file; --loader-conf= sets timeout, default, editor, reboot-on-error, and urlboot's\n"
               "urlboot-entries (a rollout's entry list) and urlboot-rollout-tries. --ca= pins the CA\n"
               "certificates (PEM or DER) the boot manager trusts for https. With --sign-key and\n"
               "--sign-cert the result is signed for Secure Boot with sbsign. A rollout's entry list is\n"
               "an image built this way with only --entry= (signed like the UKIs).\n"
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

typedef struct BuildManagerArgs {
        const char *manager, *output, *loader_conf, *key, *cert;
        char **entry_files;
        char **ca_files;
} BuildManagerArgs;

static void args_done(BuildManagerArgs *a) {
        strv_free(a->entry_files);
        strv_free(a->ca_files);
}

/* 0: build; 1: help printed; -EUSAGE: usage error (logged). */
static int parse_args(int argc, char *argv[], BuildManagerArgs *a) {
        enum { ARG_ENTRY = 0x100, ARG_LOADER_CONF, ARG_MANAGER, ARG_OUTPUT, ARG_CA, ARG_KEY, ARG_CERT };
        static const struct option options[] = {
                { "entry", required_argument, NULL, ARG_ENTRY },
                { "loader-conf", required_argument, NULL, ARG_LOADER_CONF },
                { "manager", required_argument, NULL, ARG_MANAGER },
                { "output", required_argument, NULL, ARG_OUTPUT },
                { "ca", required_argument, NULL, ARG_CA },
                { "sign-key", required_argument, NULL, ARG_KEY },
                { "sign-cert", required_argument, NULL, ARG_CERT },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        int c;

        *a = (BuildManagerArgs) { .manager = DEFAULT_MANAGER };
        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        help();
                        return 1;
                case ARG_ENTRY:
                        if (strv_extend(&a->entry_files, optarg) < 0)
                                return log_oom();
                        break;
                case ARG_CA:
                        if (strv_extend(&a->ca_files, optarg) < 0)
                                return log_oom();
                        break;
                case ARG_LOADER_CONF: a->loader_conf = optarg; break;
                case ARG_MANAGER: a->manager = optarg; break;
                case ARG_OUTPUT: a->output = optarg; break;
                case ARG_KEY: a->key = optarg; break;
                case ARG_CERT: a->cert = optarg; break;
                default:
                        return -EUSAGE;
                }
        if (!a->output || (!a->entry_files && !a->loader_conf && !a->ca_files))
                return log_usage_error("build-manager needs --output= and at least one --entry=, --loader-conf= "
                                               "or --ca= (see 'urlbootctl build-manager --help').");
        if (!a->key != !a->cert)
                return log_usage_error("--sign-key= and --sign-cert= go together.");
        return 0;
}

/* What the new sections hold, read and checked. */
typedef struct ManagerInputs {
        char *image, *entries, *conf;
        size_t image_size, entries_size, conf_size;
        uint8_t *ca;            /* EFI signature lists of the CAs pinned for https */
        size_t ca_size;
} ManagerInputs;

static void inputs_done(ManagerInputs *in) {
        free(in->image);
        free(in->entries);
        free(in->conf);
        free(in->ca);
}

static int load_ca(char **files, ManagerInputs *in) {
        _cleanup_(cert_list_done) CertList l = {};
        int r;

        STRV_FOREACH(f, files) {
                r = cert_list_add_file(&l, *f);
                if (r < 0)
                        return log_error_errno(r, "Failed to read certificates from %s: %m", *f);
        }
        r = cert_list_to_esl(&l, esl_owner_urlboot, &in->ca, &in->ca_size);
        if (r < 0)
                return log_error_errno(r, "Failed to put the CA certificates together: %m");
        for (size_t i = 0; i < l.n; i++) {
                char fp[65];

                cert_fingerprint(&l, i, fp);
                log_info("Pinned for https: CA %s (SHA-256).", fp);
        }
        return 0;
}

static int inputs_load(const BuildManagerArgs *a, ManagerInputs *in) {
        int r;

        STRV_FOREACH(e, a->entry_files) {
                r = add_entry(*e, &in->entries, &in->entries_size);
                if (r < 0)
                        return r == -ENOMEM ? r : -EIO;
        }
        if (a->loader_conf && (r = read_full_file(a->loader_conf, CONF_MAX, &in->conf, &in->conf_size)) < 0)
                return log_error_errno(r, "Failed to read %s: %m", a->loader_conf);
        if (a->ca_files && (r = load_ca(a->ca_files, in)) < 0)
                return r;
        r = read_full_file(a->manager, FILE_MAX, &in->image, &in->image_size);
        if (r < 0)
                return log_error_errno(r, "Failed to read the boot manager %s: %m", a->manager);
        return 0;
}

static int manager_write(const BuildManagerArgs *a, const ManagerInputs *in) {
        PeNewSection sections[3];
        size_t n = 0, out_size;
        char error[256];
        void *out = NULL;
        int r;

        if (in->entries)
                sections[n++] = (PeNewSection) { ".entries", in->entries, in->entries_size };
        if (in->conf)
                sections[n++] = (PeNewSection) { ".loader", in->conf, in->conf_size };
        if (in->ca)
                sections[n++] = (PeNewSection) { ".tlsca", in->ca, in->ca_size };
        r = pe_append_sections(in->image, in->image_size, sections, n, &out, &out_size, error, sizeof error);
        if (r < 0)
                return log_error_errno(r, "Cannot add sections to %s: %s.", a->manager, error);
        r = pe_write_signed(a->output, out, out_size, a->key, a->cert);
        free(out);
        if (r >= 0)
                log_info("Wrote %s (%zu bytes%s).", a->output, out_size, a->key ? ", signed" : "");
        return r;
}

int verb_build_manager(int argc, char *argv[], const void *data) {
        _cleanup_(args_done) BuildManagerArgs a = {};
        _cleanup_(inputs_done) ManagerInputs in = {};
        int r;

        assert(argv);

        r = parse_args(argc, argv, &a);
        if (r != 0)
                return r < 0 ? r : 0;
        r = inputs_load(&a, &in);
        if (r < 0)
                return r;
        return manager_write(&a, &in);
}
