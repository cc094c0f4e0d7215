/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Keys for machines that have no setup screen to enter them in: the MOK list shim trusts (enroll-mok) and
 * the CA list the firmware's HTTPS boot trusts (tls-ca), written into an OVMF variable store, or as the
 * signature list file QEMU hands the firmware (-fw_cfg name=etc/edk2/https/cacerts,file=...).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "certificates.h"
#include "efivars.h"
#include "fileio.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "signature-list.h"
#include "string-util.h"
#include "var-store.h"
#include "verb-keys.h"

/* Both variables are boot-services only: the running OS cannot write them, only a VARS file can. */
#define BOOT_SERVICES_NV (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)
#define CERTS_MAX 64

typedef struct KeysArgs {
        const char *vars, *output;
        bool json;
        CertList certs;
} KeysArgs;

static void keys_args_done(KeysArgs *a) {
        cert_list_done(&a->certs);
}

enum { ARG_VARS = 0x100, ARG_OUTPUT, ARG_JSON };

static const OptionRow enroll_mok_options[] = {
        OPTION_ROW_HELP,
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE", "the OVMF variable store to write MokList into (required)",
          "file" },
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "print the fingerprints as JSON", NULL },
        /* accepted as tls-ca's (one parser), then refused with its own message */
        { "output", 0, ARG_OUTPUT, OPTION_REQUIRED, "FILE", NULL, "file" },
};

static const OptionRow tls_ca_options[] = {
        OPTION_ROW_HELP,
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE",
          "write them into an OVMF variable store (TlsCaCertificate)", "file" },
        { "output", 0, ARG_OUTPUT, OPTION_REQUIRED, "FILE", "write the EFI signature list for QEMU's fw_cfg", "file" },
        { "json", 0, ARG_JSON, OPTION_SWITCH, NULL, "print the fingerprints as JSON", NULL },
};

const CommandTable verb_enroll_mok_table = {
        .name = "urlbootctl enroll-mok",
        .arguments = "CERT...",
        .summary = "Write the certificates (PEM or DER) into an OVMF variable store as shim's MokList, as if\n"
                   "they had been enrolled in MokManager: shim then trusts images signed with them. For virtual\n"
                   "machines and tests. On a running machine, enroll with 'mokutil --import CERT.der' and confirm\n"
                   "at the next boot in MokManager (MokList is a boot-services variable: the OS cannot set it).\n"
                   "The list replaces what the store held.",
        .options = enroll_mok_options,
        .n_options = ELEMENTSOF(enroll_mok_options),
        .min_arguments = 1,
        .max_arguments = ARGUMENTS_ANY,         /* CERTS_MAX, said in a message of its own */
        .complete_arguments = "file:pem|der|crt|cer",
};

const CommandTable verb_tls_ca_table = {
        .name = "urlbootctl tls-ca",
        .arguments = "CERT...",
        .summary = "The CA certificates (PEM or DER) the firmware's HTTPS boot trusts. --vars-file writes them into\n"
                   "an OVMF variable store as TlsCaCertificate; --output writes the EFI signature list that QEMU\n"
                   "passes with -fw_cfg name=etc/edk2/https/cacerts,file=FILE. Either way, and without them,\n"
                   "the SHA-256 fingerprint of each certificate is printed (urlbootctl status shows the one the\n"
                   "boot manager pinned).",
        .options = tls_ca_options,
        .n_options = ELEMENTSOF(tls_ca_options),
        .min_arguments = 1,
        .max_arguments = ARGUMENTS_ANY,
        .complete_arguments = "file:pem|der|crt|cer",
};

/* 0: run; 1: help printed; -EUSAGE: usage error (logged). */
static int parse_args(int argc, char *argv[], KeysArgs *a, const CommandTable *table) {
        OptionParser p;
        char **args;
        int nargs, c, r;

        if (option_parser_init(&p, table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h':
                        option_parser_done(&p);
                        (void) command_table_help(table, stdout);
                        return 1;
                case ARG_VARS: a->vars = p.argument; break;
                case ARG_OUTPUT: a->output = p.argument; break;
                case ARG_JSON: a->json = true; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (nargs > CERTS_MAX)
                return log_usage_error("At most %d certificates.", CERTS_MAX);
        for (int i = 0; i < nargs; i++) {
                r = cert_list_add_file(&a->certs, args[i]);
                if (r == -EBADMSG)
                        return log_error_errno(EBADMSG, "%s holds no X.509 certificate (PEM or DER).", args[i]);
                if (r < 0)
                        return log_error_errno(r, "Failed to read %s: %m", args[i]);
        }
        return 0;
}

static int write_variable(const char *vars, const char *vendor, const char *name, const CertList *certs,
                          const uint8_t owner[16]) {
        _cleanup_free_ uint8_t *esl = NULL;
        size_t size;
        Target t;
        int r;

        r = cert_list_to_esl(certs, owner, &esl, &size);
        if (r < 0)
                return log_error_errno(r, "Failed to make the signature list: %m");
        r = target_open(&t, vars, vendor);
        if (r < 0)
                return r;
        r = target_set_attributes(&t, name, BOOT_SERVICES_NV, esl, size);
        if (r < 0 && r != -EBADMSG && r != -ENOSPC)
                log_error_errno(r, "Failed to write %s into %s: %m", name, vars);
        if (target_close(&t) < 0 && r >= 0)
                r = -EIO;
        return r;
}

static void print_fingerprints(const CertList *certs, bool json) {
        char fp[65];

        if (json)
                fputs("{\"sha256\":[", stdout);
        for (size_t i = 0; i < certs->n; i++) {
                cert_fingerprint(certs, i, fp);
                if (json)
                        printf("%s\"%s\"", i ? "," : "", fp);
                else
                        printf("%s\n", fp);
        }
        if (json)
                puts("]}");
}

int verb_enroll_mok(int argc, char *argv[], const void *data) {
        _cleanup_(keys_args_done) KeysArgs a = {};
        int r;

        assert(argv);

        r = parse_args(argc, argv, &a, &verb_enroll_mok_table);
        if (r != 0)
                return r < 0 ? r : 0;
        if (!a.vars)
                return log_usage_error("MokList can only be written into a VARS file (--vars-file=); on a running "
                                       "machine use 'mokutil --import CERT.der'.");
        if (a.output)
                return log_usage_error("enroll-mok takes no --output=.");
        r = write_variable(a.vars, EFI_VENDOR_SHIM_STR, "MokList", &a.certs, esl_owner_shim);
        if (r < 0)
                return r;
        print_fingerprints(&a.certs, a.json);
        return 0;
}

static int write_esl_file(const char *path, const CertList *certs) {
        _cleanup_free_ uint8_t *esl = NULL;
        size_t size;
        int r;

        r = cert_list_to_esl(certs, esl_owner_urlboot, &esl, &size);
        if (r < 0)
                return log_error_errno(r, "Failed to make the signature list: %m");
        r = write_file_atomic(path, esl, size, 0644);
        if (r < 0)
                return log_error_errno(r, "Failed to write %s: %m", path);
        return 0;
}

int verb_tls_ca(int argc, char *argv[], const void *data) {
        _cleanup_(keys_args_done) KeysArgs a = {};
        int r;

        assert(argv);

        r = parse_args(argc, argv, &a, &verb_tls_ca_table);
        if (r != 0)
                return r < 0 ? r : 0;
        if (a.vars) {
                r = write_variable(a.vars, EFI_VENDOR_TLS_CA_STR, "TlsCaCertificate", &a.certs, esl_owner_urlboot);
                if (r < 0)
                        return r;
        }
        if (a.output) {
                r = write_esl_file(a.output, &a.certs);
                if (r < 0)
                        return r;
        }
        print_fingerprints(&a.certs, a.json);
        return 0;
}
