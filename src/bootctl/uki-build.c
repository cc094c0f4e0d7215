/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl build-uki: a UKI from a stub, a kernel, initrds, a command line and os-release.
 */
#include <errno.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "pe-writer.h"
#include "string-util.h"
#include "uki-build.h"

#define INPUT_SIZE_MAX (2UL * 1024 * 1024 * 1024)
#define DEFAULT_STUB "/usr/lib/urlboot/efi/urlboot-stubx64.efi"
#define INITRDS_MAX 16
#define PROFILES_MAX 8

extern char **environ;

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

/* TEXT, or @FILE; NULL leaves ret empty. */
static int load_cmdline(const char *arg, Input *ret) {
        if (!arg)
                return 0;
        if (arg[0] == '@')
                return load(arg + 1, "command line file", ret);
        ret->data = strdup(arg);
        if (!ret->data)
                return log_oom();
        ret->size = strlen(arg);
        return 0;
}

static void build_uki_help(void) {
        printf("Usage: urlbootctl build-uki --linux=FILE [--initrd=FILE...] [--cmdline=TEXT|@FILE]\n"
               "                            [--os-release=FILE] [--uname=VERSION] [--sbat=FILE]\n"
               "                            [--profile=FILE [--profile-cmdline=TEXT|@FILE]]...\n"
               "                            [--stub=FILE] [--sign-key=KEY --sign-cert=CERT] --output=FILE\n"
               "\n"
               "Make a unified kernel image: the stub with .osrel, .cmdline, .uname, .initrd (all\n"
               "initrds, concatenated) and .linux sections appended, then one .profile section per\n"
               "--profile= (profiles 0, 1, ...), each followed by its own .cmdline if given; \"@N\" in\n"
               "the load options boots profile N. --sbat= adds a .sbat section (SBAT metadata for shim).\n"
               "Default stub: " DEFAULT_STUB "; default os-release: /etc/os-release.\n"
               "With --sign-key and --sign-cert the result is signed for Secure Boot with sbsign.\n");
}

static int sign(const char *key, const char *cert, const char *in, const char *out) {
        char *argv[] = { (char *) "sbsign", (char *) "--key", (char *) key, (char *) "--cert", (char *) cert,
                         (char *) "--output", (char *) out, (char *) in, NULL };
        pid_t pid;
        int status, r;

        if (access("/usr/bin/sbsign", X_OK) < 0)
                return log_error_errno(ENOENT, "sbsign is not installed (package sbsigntool); cannot sign.");
        r = posix_spawn(&pid, "/usr/bin/sbsign", NULL, NULL, argv, environ);
        if (r != 0)
                return log_error_errno(r, "Failed to run sbsign: %m");
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                return log_error_errno(EIO, "sbsign failed to sign %s.", in);
        return 0;
}

int verb_build_uki(int argc, char *argv[]) {
        enum { ARG_STUB = 0x100, ARG_LINUX, ARG_INITRD, ARG_CMDLINE, ARG_OSREL, ARG_UNAME, ARG_PROFILE, ARG_OUTPUT,
               ARG_KEY, ARG_CERT, ARG_PROFILE_CMDLINE, ARG_SBAT };
        static const struct option options[] = {
                { "stub", required_argument, NULL, ARG_STUB },
                { "linux", required_argument, NULL, ARG_LINUX },
                { "initrd", required_argument, NULL, ARG_INITRD },
                { "cmdline", required_argument, NULL, ARG_CMDLINE },
                { "os-release", required_argument, NULL, ARG_OSREL },
                { "uname", required_argument, NULL, ARG_UNAME },
                { "sbat", required_argument, NULL, ARG_SBAT },
                { "profile", required_argument, NULL, ARG_PROFILE },
                { "profile-cmdline", required_argument, NULL, ARG_PROFILE_CMDLINE },
                { "output", required_argument, NULL, ARG_OUTPUT },
                { "sign-key", required_argument, NULL, ARG_KEY },
                { "sign-cert", required_argument, NULL, ARG_CERT },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *stub = DEFAULT_STUB, *linux_path = NULL, *cmdline = NULL, *osrel = "/etc/os-release",
                   *uname = NULL, *output = NULL, *key = NULL, *cert = NULL, *sbat = NULL;
        const char *initrds[INITRDS_MAX], *profiles[PROFILES_MAX], *profile_cmdlines[PROFILES_MAX] = {};
        size_t n_initrds = 0, n_profiles = 0, n_profile_cmdlines = 0, n = 0;
        Input stub_in = {}, linux_in = {}, osrel_in = {}, cmdline_in = {}, initrd = {}, sbat_in = {};
        Input profile_in[PROFILES_MAX] = {}, profile_cmdline_in[PROFILES_MAX] = {};
        PeNewSection sections[6 + 2 * PROFILES_MAX];
        _cleanup_free_ char *tmp = NULL;
        void *uki = NULL;
        size_t uki_size;
        char error[256];
        int c, r = -EINVAL;

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case ARG_STUB: stub = optarg; break;
                case ARG_LINUX: linux_path = optarg; break;
                case ARG_INITRD:
                        if (n_initrds >= INITRDS_MAX)
                                return log_error_errno(E2BIG, "At most %d initrds.", INITRDS_MAX);
                        initrds[n_initrds++] = optarg;
                        break;
                case ARG_CMDLINE: cmdline = optarg; break;
                case ARG_OSREL: osrel = optarg; break;
                case ARG_UNAME: uname = optarg; break;
                case ARG_SBAT: sbat = optarg; break;
                case ARG_PROFILE:
                        if (n_profiles >= PROFILES_MAX)
                                return log_error_errno(E2BIG, "At most %d profiles.", PROFILES_MAX);
                        profiles[n_profiles++] = optarg;
                        break;
                case ARG_PROFILE_CMDLINE:
                        if (n_profile_cmdlines >= PROFILES_MAX)
                                return log_error_errno(E2BIG, "At most %d profiles.", PROFILES_MAX);
                        profile_cmdlines[n_profile_cmdlines++] = optarg;
                        break;
                case ARG_OUTPUT: output = optarg; break;
                case ARG_KEY: key = optarg; break;
                case ARG_CERT: cert = optarg; break;
                case 'h': build_uki_help(); return 0;
                default: return -EINVAL;
                }
        if (!linux_path || !output || optind != argc)
                return log_error_errno(EINVAL, "build-uki needs --linux= and --output= (see 'urlbootctl build-uki --help').");
        if (!key != !cert)
                return log_error_errno(EINVAL, "--sign-key= and --sign-cert= go together.");
        if (n_profile_cmdlines > n_profiles)
                return log_error_errno(EINVAL, "Each --profile-cmdline= belongs to a --profile= given before it.");

        if (load(stub, "stub", &stub_in) < 0 || load(linux_path, "kernel", &linux_in) < 0 ||
            load(osrel, "os-release file", &osrel_in) < 0 || load_cmdline(cmdline, &cmdline_in) < 0 ||
            (sbat && load(sbat, "SBAT file", &sbat_in) < 0))
                goto finish;
        for (size_t i = 0; i < n_profiles; i++)
                if (load(profiles[i], "profile", &profile_in[i]) < 0 ||
                    load_cmdline(profile_cmdlines[i], &profile_cmdline_in[i]) < 0)
                        goto finish;
        /* Concatenated initrds are one initrd to the kernel. */
        for (size_t i = 0; i < n_initrds; i++) {
                Input one;
                char *m;
                if (load(initrds[i], "initrd", &one) < 0)
                        goto finish;
                m = realloc(initrd.data, initrd.size + one.size + 1);
                if (!m) {
                        free(one.data);
                        r = log_oom();
                        goto finish;
                }
                memcpy(m + initrd.size, one.data, one.size);
                initrd.data = m;
                initrd.size += one.size;
                free(one.data);
        }

        sections[n++] = (PeNewSection) { ".osrel", osrel_in.data, osrel_in.size };
        if (cmdline_in.data)
                sections[n++] = (PeNewSection) { ".cmdline", cmdline_in.data, cmdline_in.size };
        if (uname)
                sections[n++] = (PeNewSection) { ".uname", uname, strlen(uname) };
        if (sbat_in.data)
                sections[n++] = (PeNewSection) { ".sbat", sbat_in.data, sbat_in.size };
        if (initrd.size)
                sections[n++] = (PeNewSection) { ".initrd", initrd.data, initrd.size };
        sections[n++] = (PeNewSection) { ".linux", linux_in.data, linux_in.size };
        /* Profiles follow the base: each .profile, then what it overrides. */
        for (size_t i = 0; i < n_profiles; i++) {
                sections[n++] = (PeNewSection) { ".profile", profile_in[i].data, profile_in[i].size };
                if (profile_cmdline_in[i].data)
                        sections[n++] = (PeNewSection) { ".cmdline", profile_cmdline_in[i].data, profile_cmdline_in[i].size };
        }

        r = pe_append_sections(stub_in.data, stub_in.size, sections, n, &uki, &uki_size, error, sizeof error);
        if (r < 0) {
                log_error("Cannot build a UKI from %s: %s.", stub, error);
                goto finish;
        }

        if (key) {
                if (asprintf(&tmp, "%s.unsigned.%d", output, getpid()) < 0) {
                        r = log_oom();
                        goto finish;
                }
                r = write_file_atomic(tmp, uki, uki_size, 0644);
                if (r >= 0)
                        r = sign(key, cert, tmp, output);
                (void) unlink(tmp);
        } else
                r = write_file_atomic(output, uki, uki_size, 0644);
        if (r < 0 && !key)
                log_error_errno(r, "Failed to write %s: %m", output);
        if (r >= 0)
                log_info("Wrote %s (%zu bytes).", output, uki_size);

finish:
        free(uki);
        free(stub_in.data);
        free(linux_in.data);
        free(osrel_in.data);
        for (size_t i = 0; i < PROFILES_MAX; i++) {
                free(profile_in[i].data);
                free(profile_cmdline_in[i].data);
        }
        free(cmdline_in.data);
        free(initrd.data);
        free(sbat_in.data);
        return r;
}
