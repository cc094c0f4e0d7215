/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The table of urlboot-pull's options (pull-option.h).
 */
#include <assert.h>

#include "pull-option.h"
#include "string-util.h"
#include "tls-ca.h"

const PullOption pull_options[_PULL_OPTION_MAX] = {
        [PULL_OPTION_CLASS] = { "class", PULL_VALUE_WORD, "machine|portable|sysext|confext",
                                "machine, portable, sysext, confext", "the image's class (default machine)" },
        [PULL_OPTION_IMAGE_ROOT] = { "image-root", PULL_VALUE_PATH, "DIR", NULL,
                                     "where images go (default by class: /var/lib/machines,\n"
                                     "in the initrd /run/machines, ...)" },
        [PULL_OPTION_VERIFY] = { "verify", PULL_VALUE_WORD, "MODE", "verify=, sha256=",
                                 "no, checksum (SHA256SUMS beside the image), signature\n"
                                 "(also SHA256SUMS.gpg), or sha256:HEX / HEX to pin the\n"
                                 "digest of the served file (default signature)" },
        [PULL_OPTION_KEYRING] = { "keyring", PULL_VALUE_PATH, "FILE", NULL, "keys for --verify=signature" },
        [PULL_OPTION_MIRROR] = { "mirror", PULL_VALUE_URL, "URL", "mirror=",
                                 "another place to get the same file (repeatable)" },
        [PULL_OPTION_READ_ONLY] = { "read-only", PULL_VALUE_NONE, NULL, "ro", "make the image read-only" },
        [PULL_OPTION_FORCE] = { "force", PULL_VALUE_NONE, NULL, NULL, "replace an existing image" },
        [PULL_OPTION_RETRIES] = { "retries", PULL_VALUE_NUMBER, "N", NULL,
                                  "extra attempts per URL on network errors (default 5)" },
        [PULL_OPTION_RETRY_MAX_TIME] = { "retry-max-time", PULL_VALUE_SECONDS, "SEC", NULL,
                                         "at most this long waiting between them, per URL\n"
                                         "(default 300; a server's Retry-After counts up to 60 s)" },
        [PULL_OPTION_STALL_TIMEOUT] = { "stall-timeout", PULL_VALUE_SECONDS, "SEC", NULL,
                                        "give up on a connection idle this long (default 30)" },
        [PULL_OPTION_MIN_RATE] = { "min-rate", PULL_VALUE_SIZE, "SIZE[:SEC]", NULL,
                                   "give up on a connection slower than SIZE bytes a\n"
                                   "second over SEC seconds (default 1K:30; 0: none)" },
        [PULL_OPTION_THREADS] = { "threads", PULL_VALUE_NUMBER, "N", NULL,
                                  "threads decoding multi-block xz and multi-frame zstd (default: one per CPU)" },
        [PULL_OPTION_MEMORY_LIMIT] = { "memory-limit", PULL_VALUE_SIZE, "SIZE", NULL,
                                       "memory all decoders together may use: xz dictionaries\n"
                                       "(8 MiB a block for xz -6, 64 MiB for -9), the zstd\n"
                                       "window (default: a quarter of RAM, 128M to 1G)" },
        [PULL_OPTION_CA] = { "ca", PULL_VALUE_PATH, "FILE", NULL,
                             "trust these CA certificates instead of the system's\n"
                             "(default: " URLBOOT_TLS_CA_PATH " if it exists)" },
        [PULL_OPTION_ALLOW_HTTP_REDIRECT] = { "allow-http-redirect", PULL_VALUE_NONE, NULL, NULL,
                                              "follow redirects from https to plain http" },
        [PULL_OPTION_KEEP_DOWNLOAD] = { "keep-download", PULL_VALUE_PATH, "FILE", "serve",
                                        "also keep the file as served (verified like the\n"
                                        "image) at FILE, for urlboot-serve to hand on" },
        [PULL_OPTION_PROGRESS] = { "progress", PULL_VALUE_WORD, "auto|bar|plain|none", NULL,
                                   "how to show the progress (default auto)" },
        [PULL_OPTION_JSON] = { "json", PULL_VALUE_OPTIONAL_WORD, "pretty|short|off", NULL,
                                "print a JSON report when done" },
};

void pull_option_write(FILE *f, PullOptionId id, const char *value) {
        assert(f);
        assert(id >= 0 && id < _PULL_OPTION_MAX);
        /* a switch takes no value, an option always one, an optional word either */
        assert(pull_options[id].value == PULL_VALUE_OPTIONAL_WORD || !value == (pull_options[id].value == PULL_VALUE_NONE));

        if (value)
                fprintf(f, " --%s=%s", pull_options[id].name, value);
        else
                fprintf(f, " --%s", pull_options[id].name);
}

void pull_option_rows(OptionRow rows[static _PULL_OPTION_MAX], int first_id) {
        assert(rows);

        for (size_t i = 0; i < _PULL_OPTION_MAX; i++) {
                const PullOption *o = pull_options + i;

                rows[i] = (OptionRow) {
                        .name = o->name,
                        .id = first_id + (int) i,
                        .argument = o->value == PULL_VALUE_NONE ? OPTION_SWITCH :
                                    o->value == PULL_VALUE_OPTIONAL_WORD ? OPTION_OPTIONAL : OPTION_REQUIRED,
                        .metavar = o->metavar,
                        .help = o->help,
                        .complete = o->value != PULL_VALUE_PATH ? NULL : streq(o->metavar, "DIR") ? "dir" : "file",
                };
        }
}
