/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Keys for machines that have no setup screen to enter them in: the MOK list shim trusts (enroll-mok) and
 * the CA list the firmware's HTTPS boot trusts (tls-ca), written into an OVMF variable store, or as the
 * signature list file QEMU hands the firmware (-fw_cfg name=etc/edk2/https/cacerts,file=...).
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
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

static void help_enroll_mok(void) {
        printf("Usage: urlbootctl enroll-mok CERT... --vars-file=FILE\n"
               "\n"
               "Write the certificates (PEM or DER) into an OVMF variable store as shim's MokList, as if\n"
               "they had been enrolled in MokManager: shim then trusts images signed with them. For virtual\n"
               "machines and tests. On a running machine, enroll with 'mokutil --import CERT.der' and confirm\n"
               "at the next boot in MokManager (MokList is a boot-services variable: the OS cannot set it).\n"
               "The list replaces what the store held.\n");
}

static void help_tls_ca(void) {
        printf("Usage: urlbootctl tls-ca CERT... [--vars-file=FILE] [--output=FILE] [--json]\n"
               "\n"
               "The CA certificates (PEM or DER) the firmware's HTTPS boot trusts. --vars-file writes them into\n"
               "an OVMF variable store as TlsCaCertificate; --output writes the EFI signature list that QEMU\n"
               "passes with -fw_cfg name=etc/edk2/https/cacerts,file=FILE. Either way, and without them,\n"
               "the SHA-256 fingerprint of each certificate is printed (urlbootctl status shows the one the\n"
               "boot manager pinned).\n");
}

/* 0: run; 1: help printed; -EUSAGE: usage error (logged). */
static int parse_args(int argc, char *argv[], KeysArgs *a, void (*help)(void)) {
        enum { ARG_VARS = 0x100, ARG_OUTPUT, ARG_JSON };
        static const struct option options[] = {
                { "vars-file", required_argument, NULL, ARG_VARS },
                { "output", required_argument, NULL, ARG_OUTPUT },
                { "json", no_argument, NULL, ARG_JSON },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        int c, r;

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        help();
                        return 1;
                case ARG_VARS: a->vars = optarg; break;
                case ARG_OUTPUT: a->output = optarg; break;
                case ARG_JSON: a->json = true; break;
                default: return -EUSAGE;
                }
        if (optind >= argc)
                return log_usage_error("Name at least one certificate (see 'urlbootctl %s --help').", argv[0]);
        if (argc - optind > CERTS_MAX)
                return log_usage_error("At most %d certificates.", CERTS_MAX);
        for (int i = optind; i < argc; i++) {
                r = cert_list_add_file(&a->certs, argv[i]);
                if (r == -EBADMSG)
                        return log_error_errno(EBADMSG, "%s holds no X.509 certificate (PEM or DER).", argv[i]);
                if (r < 0)
                        return log_error_errno(r, "Failed to read %s: %m", argv[i]);
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

        r = parse_args(argc, argv, &a, help_enroll_mok);
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

        r = parse_args(argc, argv, &a, help_tls_ca);
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
