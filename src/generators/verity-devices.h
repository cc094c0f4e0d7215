/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The devices systemd's veritysetup generator waits for, for a root or /usr from roothash=/usrhash=.
 *
 * Without systemd.verity_root_data=/systemd.verity_root_hash= (…_usr_… for /usr) it takes the data and
 * hash partitions by PARTUUID from the hash itself, as the Discoverable Partitions Specification
 * names them: the first 128 bits are the data partition's UUID, the last 128 bits the hash
 * partition's. The mapped device is /dev/mapper/root (or usr).
 */
#pragma once

#define VERITY_DEVICES 3

/**
 * The three device paths (mapped device, data, hash) for a verity volume.
 * @v name            "root" or "usr"
 * @v hash            the roothash=/usrhash= value: at least 64 hex digits (SHA-256 and longer)
 * @v data, hash_dev  systemd.verity_NAME_data= / _hash= values, or NULL
 * @v ret             filled with newly allocated paths (free each)
 * @ret 0, -EINVAL when hash is not hex of an even length ≥ 64 and a partition path is needed, -ENOMEM
 */
int verity_device_paths(const char *name, const char *hash, const char *data, const char *hash_dev,
                        char *ret[VERITY_DEVICES]);
