/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Does this disk image carry the verity partitions that roothash= / usrhash= pin?
 *
 * As systemd-veritysetup-generator finds them (Discoverable Partitions Specification): the data
 * partition's UUID is the hash's first 128 bits, the verity partition's its last 128 bits. The check
 * reads the GPT, the verity superblock and the tree's top block (a few KiB, also over the network)
 * and hashes that block, so a wrong pin or a tampered tree is one clear message before anything is
 * mounted. It verifies nothing below the top block: dm-verity does that for every block it reads.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct VerityPin {
        const char *name;       /* "roothash" or "usrhash" */
        const char *hash;       /* lowercase hex, NULL when not pinned */
} VerityPin;

/* Where a pinned tree and its data are on the disk (bytes), as the check found them. */
typedef struct VerityPartition {
        const char *pin;        /* the pinned hash (the VerityPin's), NULL when this slot is unused */
        uint64_t data_offset, data_size;
        uint64_t hash_offset, hash_size;
} VerityPartition;

/**
 * Check the pins against the disk (a block device or an image file).
 * @v ret    NULL, or n_pins slots: where the pins' partitions are (pin NULL for a pin the disk does not carry)
 * @v error  on failure, one line naming the hash and what the image holds instead
 * @ret the number of pins this disk carries (at least 1), -ENOENT (none of them: the error says what the
 *      image has), -EBADMSG (a partition or tree that does not match its pin), other negative errno
 */
int verity_check_disk(const char *disk, const VerityPin *pins, size_t n_pins, VerityPartition *ret, char *error,
                      size_t error_size);
