/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Mixing the random seed for the kernel.
 */
#include "assert-fundamental.h"
#include "random-seed.h"
#include "sha256.h"
#include "string-fundamental.h"

#define LABEL "systemd-boot random seed label v1"

bool random_seed_enough(const RandomSeedSources *s) {
        fassert(s);

        if (s->rng.size > 0 || s->previous_table.size >= RANDOM_SEED_SIZE)
                return true;
        return !s->secure_boot && s->system_token.size >= RANDOM_SEED_SIZE;
}

/* length (64-bit, host order as systemd writes it), then the bytes */
static void add_source(Sha256 *c, const RandomSeedSource *s) {
        uint64_t size = s->data ? s->size : 0;

        sha256_update(c, &size, sizeof size);
        if (size)
                sha256_update(c, s->data, (size_t) size);
}

void random_seed_mix(const RandomSeedSources *s, uint8_t ret_kernel[static RANDOM_SEED_SIZE],
                     uint8_t ret_file[static RANDOM_SEED_SIZE]) {
        RandomSeedSource counter = { &s->monotonic_count, sizeof s->monotonic_count };
        uint8_t key[SHA256_DIGEST_SIZE];
        Sha256 c;

        fassert(s);
        fassert(ret_kernel);
        fassert(ret_file);

        sha256_init(&c);
        sha256_update(&c, LABEL, fstrlen(LABEL));
        add_source(&c, &s->previous_table);
        add_source(&c, &s->rng);
        add_source(&c, &s->system_token);
        add_source(&c, &s->file);
        add_source(&c, &counter);
        add_source(&c, &s->time);
        sha256_finish(&c, key);

        for (uint8_t which = 0; which < 2; which++) {
                sha256_init(&c);
                sha256_update(&c, key, sizeof key);
                sha256_update(&c, &which, 1);
                sha256_finish(&c, which == 0 ? ret_file : ret_kernel);
        }
        fmemset(key, 0, sizeof key);
}
