/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl random-seed: as systemd's bootctl random-seed, a LoaderSystemToken (32 random bytes,
 * non-volatile, written once per installation and kept) and, with --esp=, the ESP's
 * /loader/random-seed. The boot manager and the stub mix both into the seed they pass the kernel
 * (docs/measured-boot.md); the token alone is enough where the firmware has no RNG and Secure Boot is
 * off. --vars-file= writes the token into an OVMF variable store instead of the running firmware's.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "efivars.h"
#include "fileio.h"
#include "exit-status.h"
#include "log.h"
#include "macro.h"
#include "random-seed.h"
#include "var-store.h"
#include "verb-random-seed.h"


static int random_bytes(uint8_t *buf, size_t n) {
        for (size_t done = 0; done < n;) {
                ssize_t k = getrandom(buf + done, n - done, 0);
                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                done += (size_t) k;
        }
        return 0;
}

/* LoaderSystemToken, unless there is one: it must stay the same for the installation's life. */
static int write_token(const char *vars) {
        _cleanup_free_ void *old = NULL;
        uint8_t token[RANDOM_SEED_SIZE];
        size_t old_size;
        Target t;
        int r, k;

        r = target_open(&t, vars, EFI_VENDOR_LOADER_STR);
        if (r < 0)
                return log_error_errno(r, "Failed to open %s: %m", vars ?: "the EFI variables");
        if (target_get(&t, "LoaderSystemToken", &old, &old_size) >= 0 && old_size >= RANDOM_SEED_SIZE) {
                log_info("LoaderSystemToken is set already; kept.");
                r = 0;
        } else {
                r = random_bytes(token, sizeof token);
                if (r >= 0)
                        r = target_set(&t, "LoaderSystemToken", token, sizeof token);
                if (r < 0)
                        log_error_errno(r, "Failed to set LoaderSystemToken: %m");
                else
                        log_info("LoaderSystemToken set.");
                memset(token, 0, sizeof token);
        }
        k = target_close(&t);
        if (k < 0 && r >= 0)
                r = log_error_errno(k, "Failed to write %s: %m", vars ?: "the EFI variables");
        return r;
}

static int write_seed_file(const char *esp) {
        _cleanup_free_ char *dir = NULL, *path = NULL;
        uint8_t seed[RANDOM_SEED_SIZE];
        int r;

        if (asprintf(&dir, "%s/loader", esp) < 0 || asprintf(&path, "%s/random-seed", dir) < 0)
                return log_oom();
        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return log_error_errno(errno, "Failed to create %s: %m", dir);
        r = random_bytes(seed, sizeof seed);
        if (r >= 0)
                r = write_file_atomic(path, seed, sizeof seed, 0600);
        memset(seed, 0, sizeof seed);
        if (r < 0)
                return log_error_errno(r, "Failed to write %s: %m", path);
        log_info("Wrote %s.", path);
        return 0;
}

int verb_random_seed(int argc, char *argv[], const void *data) {
        enum { ARG_ESP = 0x100, ARG_VARS };
        static const struct option options[] = {
                { "esp", required_argument, NULL, ARG_ESP },
                { "vars-file", required_argument, NULL, ARG_VARS },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *esp = NULL, *vars = NULL;
        int c, r;

        assert(argv);

        optind = 0;
        while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0)
                switch (c) {
                case ARG_ESP:
                        esp = optarg;
                        break;
                case ARG_VARS:
                        vars = optarg;
                        break;
                case 'h':
                        printf("Usage: urlbootctl random-seed [--esp=DIR] [--vars-file=FILE]\n"
                               "\n"
                               "Set LoaderSystemToken (32 random bytes, once per installation) and, with --esp=,\n"
                               "write DIR/loader/random-seed: what urlboot's boot manager and stub mix into the\n"
                               "random seed they pass the kernel. --vars-file writes into an OVMF variable store.\n");
                        return 0;
                default:
                        return -EUSAGE;
                }
        if (optind != argc)
                return log_usage_error("random-seed takes no arguments (see 'urlbootctl random-seed --help').");
        r = write_token(vars);
        if (r >= 0 && esp)
                r = write_seed_file(esp);
        return r < 0 ? r : 0;
}
