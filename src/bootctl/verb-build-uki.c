/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-uki: a UKI from a stub, a kernel, initrds, a command line and os-release.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "certificates.h"
#include "cpio.h"
#include "devicetree.h"
#include "dtbauto.h"
#include "fileio.h"
#include "hwids-build.h"
#include "exit-status.h"
#include "log.h"
#include "loop-ref.h"
#include "macro.h"
#include "pe-image.h"
#include "pe-sign.h"
#include "pe-writer.h"
#include "string-util.h"
#include "verb-build-uki.h"

#define INPUT_SIZE_MAX (2UL * 1024 * 1024 * 1024)
#define DEFAULT_STUB "/usr/lib/urlboot/efi/urlboot-stubx64.efi"
#define INITRDS_MAX 16
#define CA_FILES_MAX 8
#define PROFILES_MAX 8
#define IMAGES_MAX 4
/* where --image= files are in the initrd: not under /run, which systemd mounts over in the initrd */
#define IMAGE_DIR "urlboot/images"

typedef struct Input {
        char *data;
        size_t size;
} Input;

static int load(const char *path, const char *what, Input *ret) {
        int r = read_full_file(path, INPUT_SIZE_MAX, &ret->data, &ret->size);

        if (r < 0)
                return log_error_errno(r, "Failed to read the %s %s: %m", what, path);
        return 0;
}

/* TEXT, or @FILE; NULL or an empty one leaves ret empty: a section of size 0 is refused by shim
 * ("Unsupported"), and the stub measures no .cmdline the same as an empty one. */
static int load_cmdline(const char *arg, Input *ret) {
        if (!arg)
                return 0;
        if (arg[0] == '@') {
                int r = load(arg + 1, "command line file", ret);

                if (r >= 0 && ret->size == 0)
                        ret->data = mfree(ret->data);
                return r;
        }
        if (!arg[0])
                return 0;
        ret->data = strdup(arg);
        if (!ret->data)
                return log_oom();
        ret->size = strlen(arg);
        return 0;
}

typedef struct BuildUkiArgs {
        const char *stub, *linux_path, *cmdline, *osrel, *uname, *output, *key, *cert, *sbat, *ucode;
        const char *ca_files[CA_FILES_MAX];
        size_t n_ca_files;
        const char *images[IMAGES_MAX];
        size_t n_images;
        const char *initrds[INITRDS_MAX], *profiles[PROFILES_MAX], *profile_cmdlines[PROFILES_MAX];
        size_t n_initrds, n_profiles;
        const char *devicetree, *hwids_dir;
        const char *devicetrees_auto[DTBAUTO_MAX];
        size_t n_devicetrees_auto;
} BuildUkiArgs;

/* What the sections are made of, read whole into memory. */
typedef struct UkiInputs {
        Input stub, linux_image, osrel, cmdline, initrd, sbat, ucode, devicetree, hwids;
        Input profiles[PROFILES_MAX], profile_cmdlines[PROFILES_MAX], devicetrees_auto[DTBAUTO_MAX];
} UkiInputs;

static const char *base_name(const char *path) {
        const char *slash = strrchr(path, '/');

        return slash ? slash + 1 : path;
}

/* An --image= file's name becomes its loop reference and its name in IMAGE_DIR. */
static bool image_name_ok(const BuildUkiArgs *a, const char *path) {
        const char *name = base_name(path);

        if (!loop_ref_is_valid(name) || streq(name, ".") || streq(name, ".."))
                return false;
        for (size_t i = 0; i < a->n_images; i++)
                if (streq(base_name(a->images[i]), name))
                        return false;
        return true;
}

enum {
        ARG_STUB = 0x100, ARG_LINUX, ARG_INITRD, ARG_CMDLINE, ARG_OSREL, ARG_UNAME, ARG_PROFILE, ARG_OUTPUT, ARG_KEY,
        ARG_CERT, ARG_PROFILE_CMDLINE, ARG_SBAT, ARG_UCODE, ARG_CA, ARG_IMAGE, ARG_DEVICETREE, ARG_DEVICETREE_AUTO,
        ARG_HWIDS,
};

static const OptionRow build_uki_options[] = {
        OPTION_ROW_HELP,
        { "linux", 0, ARG_LINUX, OPTION_REQUIRED, "FILE", "the kernel (required)", "file" },
        { "initrd", 0, ARG_INITRD, OPTION_REQUIRED, "FILE", "an initrd (repeatable: concatenated)", "file" },
        { "image", 0, ARG_IMAGE, OPTION_REQUIRED, "FILE", "a disk image carried in the initrd (repeatable)", "file" },
        /* a metavar "TEXT|@FILE" would complete to those two words */
        { "cmdline", 0, ARG_CMDLINE, OPTION_REQUIRED, "TEXT",
          "the kernel command line (.cmdline); @FILE: read from FILE", NULL },
        { "os-release", 0, ARG_OSREL, OPTION_REQUIRED, "FILE", "the .osrel section (default: /etc/os-release)",
          "file" },
        { "uname", 0, ARG_UNAME, OPTION_REQUIRED, "VERSION", "the kernel's version (.uname)", NULL },
        { "sbat", 0, ARG_SBAT, OPTION_REQUIRED, "FILE", "SBAT metadata for shim (.sbat)", "file" },
        { "ucode", 0, ARG_UCODE, OPTION_REQUIRED, "FILE", "early microcode, a cpio archive (.ucode)", "file" },
        { "devicetree", 0, ARG_DEVICETREE, OPTION_REQUIRED, "FILE", "a devicetree blob the stub installs (.dtb)",
          "file:dtb" },
        { "devicetree-auto", 0, ARG_DEVICETREE_AUTO, OPTION_REQUIRED, "FILE",
          "a devicetree the stub installs on machines it is compatible with\n(.dtbauto; repeatable)", "file:dtb" },
        { "hwids", 0, ARG_HWIDS, OPTION_REQUIRED, "DIR",
          "device descriptions (JSON, as ukify's) naming each machine's\ndevicetree by its CHIDs (.hwids)", "dir" },
        { "ca", 0, ARG_CA, OPTION_REQUIRED, "FILE", "a CA certificate the initrd trusts for https (repeatable)",
          "file:pem|der|crt|cer" },
        { "profile", 0, ARG_PROFILE, OPTION_REQUIRED, "FILE", "a .profile section (repeatable: profiles 0, 1, ...)",
          "file" },
        { "profile-cmdline", 0, ARG_PROFILE_CMDLINE, OPTION_REQUIRED, "TEXT",
          "the command line of the --profile= before it (TEXT or @FILE)", NULL },
        { "stub", 0, ARG_STUB, OPTION_REQUIRED, "FILE", "the stub (default: " DEFAULT_STUB ")", "file:efi" },
        { "sign-key", 0, ARG_KEY, OPTION_REQUIRED, "KEY", "sign for Secure Boot with this key (with --sign-cert=)",
          "file" },
        { "sign-cert", 0, ARG_CERT, OPTION_REQUIRED, "CERT", "and this certificate", "file" },
        { "output", 0, ARG_OUTPUT, OPTION_REQUIRED, "FILE", "where the UKI goes (required)", "file" },
};

const CommandTable verb_build_uki_table = {
        .name = "urlbootctl build-uki",
        .summary = "Make a unified kernel image: the stub with .osrel, .cmdline, .uname, .initrd (all\n"
                   "initrds, concatenated) and .linux sections appended, then one .profile section per\n"
                   "--profile= (profiles 0, 1, ...), each followed by its own .cmdline if given; \"@N\" in\n"
                   "the load options boots profile N. --sbat= adds a .sbat section (SBAT metadata for shim),\n"
                   "--ucode= a .ucode section (early microcode: a cpio archive the stub puts first in the initrd).\n"
                   "--ca= (PEM or DER, repeatable) pins the CA certificates the initrd trusts for https: they go\n"
                   "into the initrd as /etc/urlboot/tls-ca.pem (a cpio archive before the others), measured\n"
                   "and signed with it.\n"
                   "--image=FILE (repeatable) carries a disk image in the initrd as /" IMAGE_DIR "/NAME and adds\n"
                   "rd.urlboot.loop= for it to the command lines: with root=gpt-auto and roothash= one signed\n"
                   "file holds a whole verified OS, which needs no server once booted.\n"
                   "Default stub: " DEFAULT_STUB "; default os-release: /etc/os-release.\n"
                   "With --sign-key and --sign-cert the result is signed for Secure Boot with sbsign.",
        .options = build_uki_options,
        .n_options = ELEMENTSOF(build_uki_options),
};

/* One option into the arguments: 0, or -EUSAGE (logged). */
static int parse_option(int c, const char *arg, BuildUkiArgs *a) {
        switch (c) {
        case ARG_STUB: a->stub = arg; break;
        case ARG_LINUX: a->linux_path = arg; break;
        case ARG_INITRD:
                if (a->n_initrds >= INITRDS_MAX)
                        return log_usage_error("At most %d initrds.", INITRDS_MAX);
                a->initrds[a->n_initrds++] = arg;
                break;
        case ARG_CMDLINE: a->cmdline = arg; break;
        case ARG_OSREL: a->osrel = arg; break;
        case ARG_UNAME: a->uname = arg; break;
        case ARG_SBAT: a->sbat = arg; break;
        case ARG_UCODE: a->ucode = arg; break;
        case ARG_CA:
                if (a->n_ca_files >= CA_FILES_MAX)
                        return log_usage_error("At most %d --ca= files.", CA_FILES_MAX);
                a->ca_files[a->n_ca_files++] = arg;
                break;
        case ARG_IMAGE:
                if (a->n_images >= IMAGES_MAX)
                        return log_usage_error("At most %d --image= files.", IMAGES_MAX);
                if (!image_name_ok(a, arg))
                        return log_usage_error("--image=%s: its name is its loop reference (at most %d bytes, "
                                               "no control characters) and must differ from the other "
                                               "images'.", arg, LOOP_REF_MAX);
                a->images[a->n_images++] = arg;
                break;
        case ARG_PROFILE:
                if (a->n_profiles >= PROFILES_MAX)
                        return log_usage_error("At most %d profiles.", PROFILES_MAX);
                a->profiles[a->n_profiles++] = arg;
                break;
        case ARG_PROFILE_CMDLINE:
                /* It belongs to the --profile= right before it, wherever that is in the list. */
                if (a->n_profiles == 0 || a->profile_cmdlines[a->n_profiles - 1])
                        return log_usage_error("--profile-cmdline=%s must follow the --profile= it belongs to "
                                               "(one per profile).", arg);
                a->profile_cmdlines[a->n_profiles - 1] = arg;
                break;
        case ARG_DEVICETREE: a->devicetree = arg; break;
        case ARG_DEVICETREE_AUTO:
                if (a->n_devicetrees_auto >= DTBAUTO_MAX)
                        return log_usage_error("At most %d --devicetree-auto= files.", DTBAUTO_MAX);
                a->devicetrees_auto[a->n_devicetrees_auto++] = arg;
                break;
        case ARG_HWIDS: a->hwids_dir = arg; break;
        case ARG_OUTPUT: a->output = arg; break;
        case ARG_KEY: a->key = arg; break;
        case ARG_CERT: a->cert = arg; break;
        }
        return 0;
}

/* 0: build; 1: help printed; -EUSAGE: usage error (logged). */
static int parse_args(int argc, char *argv[], BuildUkiArgs *a) {
        OptionParser p;
        char **args;
        int nargs, c = 0, r = 0;

        *a = (BuildUkiArgs) { .stub = DEFAULT_STUB, .osrel = "/etc/os-release" };
        if (option_parser_init(&p, &verb_build_uki_table, argc, argv) < 0)
                return log_oom();
        while (r >= 0 && (c = option_next(&p)) > 0) {
                if (c == 'h') {
                        option_parser_done(&p);
                        (void) command_table_help(&verb_build_uki_table, stdout);
                        return 1;
                }
                r = parse_option(c, p.argument, a);
        }
        if (r >= 0)
                r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        if (!a->linux_path || !a->output)
                return log_usage_error("build-uki needs --linux= and --output= (see 'urlbootctl build-uki --help').");
        if (!a->key != !a->cert)
                return log_usage_error("--sign-key= and --sign-cert= go together.");
        if (a->hwids_dir && a->n_devicetrees_auto == 0)
                return log_usage_error("--hwids= names devicetrees by their compatible: give them with --devicetree-auto=.");
        return 0;
}

/* Append bytes to an initrd being put together. */
static int initrd_append(Input *initrd, const void *data, size_t size) {
        char *m = realloc(initrd->data, initrd->size + size + 1);

        if (!m)
                return log_oom();
        memcpy(m + initrd->size, data, size);
        initrd->data = m;
        initrd->size += size;
        return 0;
}

/* The CA for https as /etc/urlboot/tls-ca.pem in one more cpio archive before the initrds: the kernel unpacks
 * them one after the other (an uncompressed archive only at an offset that is a multiple of 4, which the end
 * of a compressed one need not be: first is safe), and .initrd is measured (PCR 11) and signed with the rest. */
static int append_ca(const BuildUkiArgs *a, Input *initrd) {
        _cleanup_(cert_list_done) CertList l = {};
        _cleanup_free_ char *pem = NULL;
        _cleanup_free_ void *archive = NULL;
        size_t pem_size, archive_size;
        CpioFile f;
        int r;

        for (size_t i = 0; i < a->n_ca_files; i++) {
                r = cert_list_add_file(&l, a->ca_files[i]);
                if (r < 0)
                        return log_error_errno(r, "Failed to read certificates from %s: %m", a->ca_files[i]);
        }
        r = cert_list_to_pem(&l, &pem, &pem_size);
        if (r < 0)
                return log_error_errno(r, "Failed to write the CA certificates as PEM: %m");
        f = (CpioFile) { .name = "tls-ca.pem", .data = pem, .size = pem_size };
        r = cpio_pack("etc/urlboot", 0755, 0644, &f, 1, &archive, &archive_size);
        if (r < 0)
                return log_error_errno(r, "Failed to pack the CA certificates: %m");
        for (size_t i = 0; i < l.n; i++) {
                char fp[65];

                cert_fingerprint(&l, i, fp);
                log_info("Pinned for https in the initrd: CA %s (SHA-256).", fp);
        }
        r = initrd_append(initrd, archive, archive_size);
        if (r >= 0 && initrd->size % 4 != 0)     /* NULs between archives are skipped */
                r = initrd_append(initrd, "\0\0\0", 4 - initrd->size % 4);
        return r;
}

/* An --image= file as IMAGE_DIR/NAME in an archive of its own, also before the initrds: the kernel unpacks
 * it into RAM, where rd.urlboot.loop= attaches it without a copy. */
static int append_image(const char *path, Input *initrd) {
        _cleanup_free_ void *archive = NULL;
        size_t archive_size;
        Input image = {};
        CpioFile f;
        int r;

        r = load(path, "image", &image);
        if (r < 0)
                return r;
        f = (CpioFile) { .name = base_name(path), .data = image.data, .size = image.size };
        r = cpio_pack(IMAGE_DIR, 0755, 0444, &f, 1, &archive, &archive_size);
        free(image.data);
        if (r == -E2BIG)
                return log_error_errno(r, "%s is 4 GiB or more, which an initrd's cpio archive cannot hold.", path);
        if (r < 0)
                return log_oom();
        r = initrd_append(initrd, archive, archive_size);
        if (r >= 0 && initrd->size % 4 != 0)
                r = initrd_append(initrd, "\0\0\0", 4 - initrd->size % 4);
        if (r >= 0)
                log_info("Carried in the initrd: %s as /" IMAGE_DIR "/%s (rd.urlboot.loop=).", path, f.name);
        return r;
}

/* Concatenated initrds are one initrd to the kernel. */
static int load_initrds(const BuildUkiArgs *a, Input *ret) {
        if (a->n_ca_files > 0) {
                int r = append_ca(a, ret);
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < a->n_images; i++) {
                int r = append_image(a->images[i], ret);
                if (r < 0)
                        return r;
        }
        for (size_t i = 0; i < a->n_initrds; i++) {
                Input one;
                int r = load(a->initrds[i], "initrd", &one);

                if (r < 0)
                        return r;
                r = initrd_append(ret, one.data, one.size);
                free(one.data);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* word as a whole word of the command line (not the start of a longer one: "NAME.raw" in "NAME.raw2"). */
static bool cmdline_has_word(const char *cmdline, const char *word) {
        size_t n = strlen(word);

        for (const char *p = strstr(cmdline, word); p; p = strstr(p + 1, word))
                if ((p == cmdline || strchr(" \t\n", p[-1])) && (p[n] == 0 || strchr(" \t\n", p[n])))
                        return true;
        return false;
}

/* " rd.urlboot.loop=/IMAGE_DIR/NAME" for each --image= the command line does not name yet. */
static int cmdline_add_images(const BuildUkiArgs *a, Input *cmdline) {
        for (size_t i = 0; i < a->n_images; i++) {
                _cleanup_free_ char *word = NULL;
                char *grown;

                if (asprintf(&word, "rd.urlboot.loop=/" IMAGE_DIR "/%s", base_name(a->images[i])) < 0)
                        return log_oom();
                if (cmdline->data && cmdline_has_word(cmdline->data, word))
                        continue;
                grown = realloc(cmdline->data, cmdline->size + 1 + strlen(word) + 1);
                if (!grown)
                        return log_oom();
                cmdline->size += (size_t) sprintf(grown + cmdline->size, "%s%s", cmdline->size ? " " : "", word);
                cmdline->data = grown;
        }
        return 0;
}

/* .dtb, the .dtbauto candidates (each must say what it is compatible with, or the stub never chooses it)
 * and .hwids. */
static int load_devicetrees(const BuildUkiArgs *a, UkiInputs *in) {
        const char *compatible;
        int r;

        if (a->devicetree && (r = load(a->devicetree, "devicetree", &in->devicetree)) < 0)
                return r;
        for (size_t i = 0; i < a->n_devicetrees_auto; i++) {
                r = load(a->devicetrees_auto[i], "devicetree", &in->devicetrees_auto[i]);
                if (r < 0)
                        return r;
                if (fdt_root_compatible(in->devicetrees_auto[i].data, in->devicetrees_auto[i].size, &compatible) < 0)
                        return log_error_errno(EINVAL, "--devicetree-auto=%s: not a devicetree blob whose root says "
                                               "what it is compatible with (dtc -I dts -O dtb makes one).",
                                               a->devicetrees_auto[i]);
                log_info("Devicetree %s for machines compatible with %s.", a->devicetrees_auto[i], compatible);
        }
        if (a->hwids_dir && (r = hwids_build_from_dir(a->hwids_dir, (void **) &in->hwids.data, &in->hwids.size)) < 0)
                return r;
        return 0;
}

static int inputs_load(const BuildUkiArgs *a, UkiInputs *in) {
        int r;

        if ((r = load(a->stub, "stub", &in->stub)) < 0 || (r = load(a->linux_path, "kernel", &in->linux_image)) < 0 ||
            (r = load(a->osrel, "os-release file", &in->osrel)) < 0 || (r = load_cmdline(a->cmdline, &in->cmdline)) < 0 ||
            (a->sbat && (r = load(a->sbat, "SBAT file", &in->sbat)) < 0) ||
            (a->ucode && (r = load(a->ucode, "microcode archive", &in->ucode)) < 0))
                return r;
        for (size_t i = 0; i < a->n_profiles; i++) {
                if ((r = load(a->profiles[i], "profile", &in->profiles[i])) < 0 ||
                    (r = load_cmdline(a->profile_cmdlines[i], &in->profile_cmdlines[i])) < 0)
                        return r;
                /* Without its own .cmdline a profile inherits the base's: an empty one cannot be said. */
                if (a->profile_cmdlines[i] && !in->profile_cmdlines[i].data && in->cmdline.data)
                        return log_error_errno(EINVAL, "--profile-cmdline=%s for profile %zu is empty, which a UKI cannot "
                                               "carry (a section of size 0) while the base has a command line: give "
                                               "the profile a command line or leave the base's empty too.",
                                               a->profile_cmdlines[i], i);
                /* a profile's own command line replaces the base's: it needs the images named too */
                if (in->profile_cmdlines[i].data && (r = cmdline_add_images(a, &in->profile_cmdlines[i])) < 0)
                        return r;
        }
        if ((r = cmdline_add_images(a, &in->cmdline)) < 0)
                return r;
        if ((r = load_devicetrees(a, in)) < 0)
                return r;
        return load_initrds(a, &in->initrd);
}

static const char *machine_name(uint16_t machine) {
        switch (machine) {
        case 0x8664: return "x86-64";
        case 0xaa64: return "arm64";
        case 0x014c: return "x86 (32-bit)";
        case 0x01c4: return "arm (32-bit)";
        case 0x5064: return "riscv64";
        default: return "an unknown machine";
        }
}

/* The stub starts the kernel with LoadImage(): both must be built for the same machine. (A stub that is no
 * PE image is refused when the sections are appended; a kernel that is none, by the firmware at boot.) */
static int check_machines(const BuildUkiArgs *a, const UkiInputs *in) {
        PeHeaders stub, kernel;

        if (pe_parse_headers(in->stub.data, in->stub.size, &stub) < 0 ||
            pe_parse_headers(in->linux_image.data, in->linux_image.size, &kernel) < 0 || kernel.machine == stub.machine)
                return 0;
        return log_error_errno(EINVAL, "The stub %s is for %s (machine 0x%04x) but the kernel %s is for %s (machine "
                               "0x%04x): give --stub= the stub built for the kernel's architecture.", a->stub,
                               machine_name(stub.machine), stub.machine, a->linux_path, machine_name(kernel.machine),
                               kernel.machine);
}

static void inputs_free(UkiInputs *in) {
        free(in->stub.data);
        free(in->linux_image.data);
        free(in->osrel.data);
        free(in->cmdline.data);
        free(in->initrd.data);
        free(in->sbat.data);
        free(in->ucode.data);
        free(in->devicetree.data);
        free(in->hwids.data);
        for (size_t i = 0; i < DTBAUTO_MAX; i++)
                free(in->devicetrees_auto[i].data);
        for (size_t i = 0; i < PROFILES_MAX; i++) {
                free(in->profiles[i].data);
                free(in->profile_cmdlines[i].data);
        }
}

/* The sections in the UKI specification's order; returns how many. */
static size_t uki_sections(const BuildUkiArgs *a, const UkiInputs *in, PeNewSection *sections) {
        size_t n = 0;

        sections[n++] = (PeNewSection) { ".osrel", in->osrel.data, in->osrel.size };
        if (in->cmdline.data)
                sections[n++] = (PeNewSection) { ".cmdline", in->cmdline.data, in->cmdline.size };
        /* the devicetrees where ukify puts them: .dtb, each .dtbauto, then .hwids */
        if (in->devicetree.data)
                sections[n++] = (PeNewSection) { ".dtb", in->devicetree.data, in->devicetree.size };
        for (size_t i = 0; i < a->n_devicetrees_auto; i++)
                sections[n++] = (PeNewSection) { ".dtbauto", in->devicetrees_auto[i].data, in->devicetrees_auto[i].size };
        if (in->hwids.data)
                sections[n++] = (PeNewSection) { ".hwids", in->hwids.data, in->hwids.size };
        if (a->uname)
                sections[n++] = (PeNewSection) { ".uname", a->uname, strlen(a->uname) };
        if (in->sbat.data)
                sections[n++] = (PeNewSection) { ".sbat", in->sbat.data, in->sbat.size };
        if (in->initrd.size)
                sections[n++] = (PeNewSection) { ".initrd", in->initrd.data, in->initrd.size };
        if (in->ucode.size)
                sections[n++] = (PeNewSection) { ".ucode", in->ucode.data, in->ucode.size };
        sections[n++] = (PeNewSection) { ".linux", in->linux_image.data, in->linux_image.size };
        /* Profiles follow the base: each .profile, then what it overrides. */
        for (size_t i = 0; i < a->n_profiles; i++) {
                sections[n++] = (PeNewSection) { ".profile", in->profiles[i].data, in->profiles[i].size };
                if (in->profile_cmdlines[i].data)
                        sections[n++] = (PeNewSection) { ".cmdline", in->profile_cmdlines[i].data,
                                                         in->profile_cmdlines[i].size };
        }
        return n;
}

int verb_build_uki(int argc, char *argv[], const void *data) {
        PeNewSection sections[9 + DTBAUTO_MAX + 2 * PROFILES_MAX];
        BuildUkiArgs args;
        UkiInputs in = {};
        void *uki = NULL;
        size_t uki_size;
        char error[256];
        int r;

        assert(argv);

        r = parse_args(argc, argv, &args);
        if (r != 0)
                return r < 0 ? r : 0;
        r = inputs_load(&args, &in);
        if (r >= 0)
                r = check_machines(&args, &in);
        if (r >= 0) {
                r = pe_append_sections(in.stub.data, in.stub.size, sections, uki_sections(&args, &in, sections), &uki,
                                       &uki_size, error, sizeof error);
                if (r < 0)
                        log_error("Cannot build a UKI from %s: %s.", args.stub, error);
        }
        if (r >= 0)
                r = pe_write_signed(args.output, uki, uki_size, args.key, args.cert);
        if (r >= 0)
                log_info("Wrote %s (%zu bytes).", args.output, uki_size);
        free(uki);
        inputs_free(&in);
        return r;
}
