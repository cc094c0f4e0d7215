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

enum { ARG_ESP = 0x100, ARG_VARS };

static const OptionRow random_seed_options[] = {
        OPTION_ROW_HELP,
        { "esp", 0, ARG_ESP, OPTION_REQUIRED, "DIR", "also write DIR/loader/random-seed", "dir" },
        { "vars-file", 0, ARG_VARS, OPTION_REQUIRED, "FILE", "write into an OVMF variable store (OVMF_VARS*.fd)",
          "file" },
};

const CommandTable verb_random_seed_table = {
        .name = "urlbootctl random-seed",
        .summary = "Set LoaderSystemToken (32 random bytes, once per installation) and, with --esp=,\n"
                   "write DIR/loader/random-seed: what urlboot's boot manager and stub mix into the\n"
                   "random seed they pass the kernel. --vars-file writes into an OVMF variable store.",
        .options = random_seed_options,
        .n_options = ELEMENTSOF(random_seed_options),
};

int verb_random_seed(int argc, char *argv[], const void *data) {
        const char *esp = NULL, *vars = NULL;
        OptionParser p;
        char **args;
        int nargs, c, r;

        assert(argv);

        if (option_parser_init(&p, &verb_random_seed_table, argc, argv) < 0)
                return log_oom();
        while ((c = option_next(&p)) > 0)
                switch (c) {
                case 'h': option_parser_done(&p); return command_table_help(&verb_random_seed_table, stdout);
                case ARG_ESP: esp = p.argument; break;
                case ARG_VARS: vars = p.argument; break;
                }
        r = c < 0 ? c : option_parser_arguments(&p, &nargs, &args);
        option_parser_done(&p);
        if (r < 0)
                return r;
        r = write_token(vars);
        if (r >= 0 && esp)
                r = write_seed_file(esp);
        return r < 0 ? r : 0;
}
