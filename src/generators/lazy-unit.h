/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The unit of a "lazy" pull expression: urlboot-lazy@<escaped image path>.service.
 *
 * It runs "urlboot-lazy attach", which serves the remote image as a block device at once (nbdkit,
 * nbd, device-mapper) and keeps running, also across the switch to the real root (whose systemd finds
 * the unit urlboot-lazy keeps for it), until its background copy is complete. Its blocks are verified by dm-verity, with the root hashes pinned on
 * the kernel command line (roothash=, usrhash=).
 */
#pragma once

#include <stdbool.h>

#include "pull-expression.h"

/** Hashes pinned on the kernel command line (NULL when absent). */
typedef struct VerityPins {
        char *roothash;
        char *usrhash;
} VerityPins;

void verity_pins_done(VerityPins *p);

/**
 * Read roothash= and usrhash= (never "rd."-prefixed, as systemd has them).
 * @v error  on failure, one line naming the malformed value
 * @ret 0, -EINVAL for a value that is not a hexadecimal hash of at least 128 bits, -ENOMEM
 */
int verity_pins_load(VerityPins *ret, char *error, size_t error_size);

/**
 * Whether a lazy expression may go ahead: it needs a pinned hash, or an explicit verify=no.
 * @ret 0 or -EINVAL with the reason in error
 */
int lazy_check_pins(const PullExpression *e, const VerityPins *pins, char *error, size_t error_size);

typedef struct LazyUnitSettings {
        bool initrd;
        const char *success_action;     /* NULL: none */
        const char *failure_action;     /* NULL: in the initrd, the emergency target */
        const VerityPins *pins;
} LazyUnitSettings;

/**
 * Write the unit into dir (create-exclusive).
 * @ret 0, -EEXIST when it is there already, other negative errno
 */
int lazy_unit_write(const char *dir, const char *unit, const char *generator, const PullExpression *e,
                    const LazyUnitSettings *s);
