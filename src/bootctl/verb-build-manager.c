/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-manager: append .entries ("ID.conf=BODY" records, NUL-separated, the same form as
 * SMBIOS io.systemd.boot.entries-extra strings) and .loader (loader.conf text) to urlbootx64.efi; with
 * --generation=, a rollout's entry list instead (.entries and .rollout, rollout-list.h), every entry pinned
 * to the SHA-256 of its UKI (--uki=).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
#include "parse-size.h"
#include "rollout-list.h"
#include "sha256.h"
#include "signature-list.h"
#include "string-fundamental.h"
#include "string-util.h"
#include "time-span.h"

#define FILE_MAX (64UL * 1024 * 1024)
#define UKI_MAX (1024UL * 1024 * 1024)
#define CONF_MAX (64UL * 1024)
#define DEFAULT_MANAGER "/usr/lib/urlboot/efi/urlbootx64.efi"

/* The file name an entry's image goes by: uki-url's last component, or the last one of a path. */
static const char *entry_image_name(const BlsEntry *e) {
        const char *slash = strrchr(e->path, e->kind == BLS_KIND_UKI_URL ? '/' : '\\') ?: strrchr(e->path, '/');

        if (e->kind == BLS_KIND_UKI_URL && e->path[0] == ':' && !strchr(e->path, '/'))
                return e->path + 1;
        return slash ? slash + 1 : e->path;
}

/* The --uki= file whose name is the entry's image's, or NULL. */
static const char *uki_for_entry(const BlsEntry *e, char **ukis) {
        const char *want = entry_image_name(e);

        STRV_FOREACH(u, ukis) {
                const char *base = strrchr(*u, '/');

                if (streq(base ? base + 1 : *u, want))
                        return *u;
        }
        return NULL;
}

/* The SHA-256 of a file, as 64 hex digits. */
static int file_sha256_hex(const char *path, char hex[static 2 * SHA256_DIGEST_SIZE + 1]) {
        _cleanup_free_ char *data = NULL;
        uint8_t digest[SHA256_DIGEST_SIZE];
        unsigned n = 0;
        size_t size;
        int r;

        r = read_full_file(path, UKI_MAX, &data, &size);
        if (r < 0)
                return r;
        if (!EVP_Digest(data, size, digest, &n, EVP_sha256(), NULL) || n != SHA256_DIGEST_SIZE)
                return -EIO;
        sha256_to_hex(digest, hex);
        return 0;
}

/* The entry's text with its pin: "urlboot-sha256 HEX" appended, or the one it has checked. */
static int entry_pin(const char *path, BlsEntry *e, char **ukis, bool required, char **text, size_t *n) {
        const char *uki = uki_for_entry(e, ukis);
        char hex[2 * SHA256_DIGEST_SIZE + 1], *grown;
        int r;

        if (!uki) {
                if (required && !e->pin)
                        return log_error_errno(EINVAL, "%s: no --uki= file named %s: a rollout's entry must pin its UKI.",
                                               path, entry_image_name(e));
                return 0;
        }
        r = file_sha256_hex(uki, hex);
        if (r < 0)
                return log_error_errno(r, "Failed to read the UKI %s: %m", uki);
        if (e->pin)
                return streq(e->pin, hex) ? 0 : log_error_errno(EINVAL, "%s pins %s, but %s has SHA-256 %s.", path,
                                                                 e->pin, uki, hex);
        grown = realloc(*text, *n + 1 + 15 + sizeof hex + 1);
        if (!grown)
                return log_oom();
        *text = grown;
        *n += (size_t) sprintf(grown + *n, "%surlboot-sha256 %s\n", *n && grown[*n - 1] != '\n' ? "\n" : "", hex);
        log_info("%s: pinned to %s (SHA-256 %s).", path, uki, hex);
        return 0;
}

/* Append "NAME=BODY\0" to the .entries buffer, after checking that the entry parses (and pinning it). */
static int add_entry(const char *path, char **ukis, bool pins_required, char **buf, size_t *size) {
        _cleanup_free_ char *text = NULL, *name = NULL;
        _cleanup_(bls_entry_freep) BlsEntry *e = NULL;
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
        if (r == -EINVAL)
                return log_error_errno(EINVAL, "%s: its urlboot-sha256 is not one SHA-256 in 64 lowercase hex digits.",
                                       path);
        if (r < 0)
                return log_error_errno(EINVAL, "%s names no (or more than one) thing to boot: linux, efi, uki or uki-url.",
                                       path);
        r = entry_pin(path, e, ukis, pins_required, &text, &n);
        if (r < 0)
                return r;
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
        char **uki_files;
        RolloutListMeta list;   /* list.generation > 0: build a rollout's entry list */
        bool made_set;
} BuildManagerArgs;

static void args_done(BuildManagerArgs *a) {
        strv_free(a->entry_files);
        strv_free(a->ca_files);
        strv_free(a->uki_files);
}

enum {
        ARG_ENTRY = 0x100, ARG_LOADER_CONF, ARG_MANAGER, ARG_OUTPUT, ARG_CA, ARG_KEY, ARG_CERT, ARG_UKI,
        ARG_GENERATION, ARG_MAX_AGE, ARG_MADE,
};

/* When the list was made: $SOURCE_DATE_EPOCH (reproducible builds), else now. */
static uint64_t list_made_default(void) {
        const char *e = getenv("SOURCE_DATE_EPOCH");
        uint64_t v;

        if (e && fparse_uint64(e, strlen(e), ROLLOUT_GENERATION_MAX, &v) == 0)
                return v;
        return (uint64_t) time(NULL);
}

static int parse_list_option(int c, const char *arg, BuildManagerArgs *a) {
        uint64_t v;

        if (c == ARG_GENERATION) {
                if (fparse_uint64(arg, strlen(arg), ROLLOUT_GENERATION_MAX, &v) < 0 || v == 0)
                        return log_usage_error("--generation=%s: a number from 1 to %" PRIu64 ".", arg,
                                               ROLLOUT_GENERATION_MAX);
                a->list.generation = v;
        } else if (c == ARG_MAX_AGE) {
                if (time_span_parse(arg, &v) < 0 || v > ROLLOUT_GENERATION_MAX)
                        return log_usage_error("--max-age=%s: a time span such as 7d, 12h or 3600.", arg);
                a->list.max_age = v;
        } else {
                if (fparse_uint64(arg, strlen(arg), ROLLOUT_GENERATION_MAX, &v) < 0)
                        return log_usage_error("--made=%s: seconds since 1970.", arg);
                a->list.made = v;
                a->made_set = true;
        }
        return 0;
}

static const OptionRow build_manager_options[] = {
        OPTION_ROW_HELP,
        { "entry", 0, ARG_ENTRY, OPTION_REQUIRED, "FILE.conf", "a Type #1 entry, named after the file (repeatable)",
          "file:conf" },
        { "uki", 0, ARG_UKI, OPTION_REQUIRED, "FILE", "pin the entry that names this UKI to its SHA-256 (repeatable)",
          "file:efi" },
        { "loader-conf", 0, ARG_LOADER_CONF, OPTION_REQUIRED, "FILE", "loader.conf settings", "file" },
        { "ca", 0, ARG_CA, OPTION_REQUIRED, "FILE", "a CA certificate trusted for https (repeatable)",
          "file:pem|der|crt|cer" },
        { "manager", 0, ARG_MANAGER, OPTION_REQUIRED, "FILE", "the boot manager (default: " DEFAULT_MANAGER ")",
          "file:efi" },
        { "sign-key", 0, ARG_KEY, OPTION_REQUIRED, "KEY", "sign for Secure Boot with this key (with --sign-cert=)",
          "file" },
        { "sign-cert", 0, ARG_CERT, OPTION_REQUIRED, "CERT", "and this certificate", "file" },
        { "generation", 0, ARG_GENERATION, OPTION_REQUIRED, "N", "make a rollout's entry list of generation N", NULL },
        { "max-age", 0, ARG_MAX_AGE, OPTION_REQUIRED, "SPAN", "how old the entry list may grow (\"7d\")", NULL },
        { "made", 0, ARG_MADE, OPTION_REQUIRED, "SECONDS", "when the entry list was made (seconds since 1970)", NULL },
        { "output", 0, ARG_OUTPUT, OPTION_REQUIRED, "FILE", "where the result goes (required)", "file" },
};

const CommandTable verb_build_manager_table = {
        .name = "urlbootctl build-manager",
        .summary = "Build Type #1 entries and a loader.conf into the boot manager, for booting it over\n"
                   "HTTP where it has no file system: each --entry= file becomes a menu entry named after\n"
                   "the file; --loader-conf= sets timeout, default, editor, reboot-on-error, and urlboot's\n"
                   "urlboot-entries (a rollout's entry list), urlboot-rollout-tries and urlboot-rollout-watchdog.\n"
                   "--uki= pins the entry that names this file (uki-url :NAME, or a path ending in NAME) to its\n"
                   "SHA-256 (urlboot-sha256): the boot manager starts no other bytes. --ca= pins the CA\n"
                   "certificates (PEM or DER) the boot manager trusts for https. With --sign-key and\n"
                   "--sign-cert the result is signed for Secure Boot with sbsign.\n"
                   "With --generation= the output is a rollout's entry list instead (a number raised with\n"
                   "every list: a machine refuses a lower one than it took), every entry pinned by --uki=;\n"
                   "--max-age= (\"7d\") is how old the list may grow before booted systems warn, --made= when\n"
                   "it was made (default: $SOURCE_DATE_EPOCH, else now).\n"
                   "Default boot manager: " DEFAULT_MANAGER ".",
        .options = build_manager_options,
        .n_options = ELEMENTSOF(build_manager_options),
        .max_arguments = 0,     /* an extra word is a mistake (--entry=a b), not something to ignore */
};

/* One option into the arguments: 0, or <0 (logged). */
static int parse_option(int c, const char *arg, BuildManagerArgs *a) {
        switch (c) {
        case ARG_ENTRY:
                if (strv_extend(&a->entry_files, arg) < 0)
                        return log_oom();
                break;
        case ARG_CA:
                if (strv_extend(&a->ca_files, arg) < 0)
                        return log_oom();
                break;
        case ARG_UKI:
                if (strv_extend(&a->uki_files, arg) < 0)
                        return log_oom();
                break;
        case ARG_GENERATION:
        case ARG_MAX_AGE:
        case ARG_MADE:
                if (parse_list_option(c, arg, a) < 0)
                        return -EUSAGE;
                break;
        case ARG_LOADER_CONF: a->loader_conf = arg; break;
        case ARG_MANAGER: a->manager = arg; break;
        case ARG_OUTPUT: a->output = arg; break;
        case ARG_KEY: a->key = arg; break;
        case ARG_CERT: a->cert = arg; break;
        }
        return 0;
}

/* 0: build; 1: help printed; -EUSAGE: usage error (logged). */
static int parse_args(int argc, char *argv[], BuildManagerArgs *a) {
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 0;

        *a = (BuildManagerArgs) { .manager = DEFAULT_MANAGER };
        if (option_parser_init(&p, &verb_build_manager_table, argc, argv) < 0)
                return log_oom();
        while (r >= 0 && (c = option_next(&p)) > 0) {
                if (c == 'h') {
                        option_parser_done(&p);
                        (void) command_table_help(&verb_build_manager_table, stdout);
                        return 1;
                }
                r = parse_option(c, p.argument, a);
        }
        if (r >= 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (!a->output || (!a->entry_files && !a->loader_conf && !a->ca_files))
                return log_usage_error("build-manager needs --output= and at least one --entry=, --loader-conf= "
                                               "or --ca= (see 'urlbootctl build-manager --help').");
        if (!a->key != !a->cert)
                return log_usage_error("--sign-key= and --sign-cert= go together.");
        if (a->list.generation == 0 && (a->list.max_age || a->made_set))
                return log_usage_error("--max-age= and --made= describe an entry list: give --generation= too.");
        if (a->list.generation > 0 && (a->loader_conf || a->ca_files || !a->entry_files))
                return log_usage_error("An entry list (--generation=) holds --entry= files only: no --loader-conf= or "
                                       "--ca=.");
        if (a->list.generation > 0 && !a->made_set)
                a->list.made = list_made_default();
        return 0;
}

/* What the new sections hold, read and checked. */
typedef struct ManagerInputs {
        char *image, *entries, *conf, meta[ROLLOUT_LIST_META_MAX];
        size_t image_size, entries_size, conf_size, meta_size;
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
                r = add_entry(*e, a->uki_files, a->list.generation > 0, &in->entries, &in->entries_size);
                if (r < 0)
                        return r == -ENOMEM ? r : -EIO;
        }
        if (a->list.generation > 0)
                in->meta_size = rollout_list_meta_format(&a->list, in->meta, sizeof in->meta);
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
        PeNewSection sections[4];
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
        if (in->meta_size)
                sections[n++] = (PeNewSection) { ".rollout", in->meta, in->meta_size };
        r = pe_append_sections(in->image, in->image_size, sections, n, &out, &out_size, error, sizeof error);
        if (r < 0)
                return log_error_errno(r, "Cannot add sections to %s: %s.", a->manager, error);
        r = pe_write_signed(a->output, out, out_size, a->key, a->cert);
        free(out);
        if (r >= 0 && a->list.generation > 0)
                log_info("Wrote the entry list %s, generation %" PRIu64 " (%zu bytes%s).", a->output,
                         a->list.generation, out_size, a->key ? ", signed" : "");
        else if (r >= 0)
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
