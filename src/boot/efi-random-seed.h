/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Passing the kernel a random seed as systemd-boot does: a LINUX_EFI_RANDOM_SEED_TABLE configuration
 * table, mixed (src/fundamental/random-seed.h) from the firmware's RNG, an earlier table, the
 * LoaderSystemToken variable and the ESP's \loader\random-seed file, which gets the next seed. Without
 * a volume (HTTP boot) there is no file, and the rest must do.
 */
#pragma once

#include <efi.h>

#include "macro-fundamental.h"

/**
 * Mix and install the seed.
 * @v root  the ESP's root directory, or NULL
 * @ret whether a seed was installed (false: nothing unpredictable to mix, or out of memory)
 */
bool random_seed_pass(EFI_FILE *root);
