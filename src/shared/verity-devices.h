/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What systemd derives from a verity root hash (roothash=, usrhash=): the data and hash partitions'
 * UUIDs, and the devices its veritysetup generator waits for.
 *
 * Without systemd.verity_root_data=/systemd.verity_root_hash= (…_usr_… for /usr) systemd takes the data
 * and hash partitions by PARTUUID from the hash itself, as the Discoverable Partitions Specification
 * names them: the first 128 bits are the data partition's UUID, the last 128 bits the hash
 * partition's. The mapped device is /dev/mapper/root (or usr).
 */
#pragma once

#include <stdbool.h>

#define VERITY_DEVICES 3

/** Whether s is a hash systemd finds partitions by: 128 to 512 bits of hex, either case. */
bool verity_hash_is_valid(const char *s);

/**
 * The UUID systemd gives the data (first 128 bits) or hash partition (last 128 bits) of a valid hash,
 * lowercase: "00112233-4455-6677-8899-aabbccddeeff".
 */
void verity_partition_uuid(const char *hash, bool hash_partition, char ret[37]);

/**
 * The three device paths (mapped device, data, hash) for a verity volume.
 * @v name            "root" or "usr"
 * @v hash            the roothash=/usrhash= value
 * @v data, hash_dev  systemd.verity_NAME_data= / _hash= values, or NULL
 * @v ret             filled with newly allocated paths (free each)
 * @ret 0, -EINVAL when hash is not valid and a partition path is needed, -ENOMEM
 */
int verity_device_paths(const char *name, const char *hash, const char *data, const char *hash_dev,
                        char *ret[VERITY_DEVICES]);
