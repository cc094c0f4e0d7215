/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The random seed a boot loader hands the kernel (LINUX_EFI_RANDOM_SEED_TABLE), mixed the way
 * systemd-boot mixes it: SHA-256 over a label and every source, each preceded by its length (a 64-bit
 * number), giving a key; the seed for the kernel is SHA-256(key || 1), the next seed for the ESP file
 * SHA-256(key || 0). Sources: the seed table an earlier program left, the firmware's RNG, the
 * LoaderSystemToken variable (set once per installation), the ESP's \loader\random-seed file, the
 * monotonic counter and the time.
 *
 * A seed is only worth passing when something unpredictable went in: the firmware's RNG, an earlier
 * table of 32 bytes or more, or (not under Secure Boot, where the ESP and the variables are not to be
 * trusted alone) a system token of 32 bytes or more. The ESP file alone is the same on every machine
 * made from one image.
 */
#pragma once

#include "macro-fundamental.h"

#define RANDOM_SEED_SIZE 32

typedef struct RandomSeedSource {
        const void *data;
        size_t size;            /* 0: absent */
} RandomSeedSource;

typedef struct RandomSeedSources {
        RandomSeedSource previous_table;
        RandomSeedSource rng;
        RandomSeedSource system_token;
        RandomSeedSource file;
        uint64_t monotonic_count;
        RandomSeedSource time;
        bool secure_boot;
} RandomSeedSources;

/** Whether the sources hold enough to pass a seed at all. */
bool random_seed_enough(const RandomSeedSources *s);

/** Mix the sources: the seed for the kernel, and the one to write back to the ESP file. */
void random_seed_mix(const RandomSeedSources *s, uint8_t ret_kernel[static RANDOM_SEED_SIZE],
                     uint8_t ret_file[static RANDOM_SEED_SIZE]);
