/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Project IDs for directory quotas, chosen as systemd v258 chooses them.
 *
 * v258 gives each (unit, directory type) a project ID in the upper half of the 32-bit range:
 * SipHash-2-4 with a fixed key over "<cgroup path>|<type>", e.g. "/system.slice/foo.service|StateDirectory",
 * reduced into PROJECT_ID_MIN…PROJECT_ID_MAX. Computing the same candidate means a directory keeps its ID
 * (and its usage record) when the machine moves to systemd ≥ 258.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROJECT_ID_MIN UINT32_C(2147483648)
#define PROJECT_ID_MAX UINT32_C(4294967294)

/** The IDs v258 hands out (and recognizes as its own). */
static inline bool project_id_in_range(uint32_t id) {
        return id >= PROJECT_ID_MIN && id <= PROJECT_ID_MAX;
}

/** Reduce a 64-bit hash or random number into the range (v258's modulo). */
static inline uint32_t project_id_from_u64(uint64_t v) {
        return (uint32_t) (v % (PROJECT_ID_MAX - PROJECT_ID_MIN + 1)) + PROJECT_ID_MIN;
}

/**
 * SipHash-2-4 (64-bit output, little-endian as the reference implementation emits it), by OpenSSL.
 * @ret 0, or -EIO when OpenSSL lacks the algorithm
 */
int siphash24(const void *data, size_t size, const uint8_t key[16], uint64_t *ret);

/**
 * The first candidate ID v258 tries for a unit's directories of one type.
 * @v cgroup     the unit's control group path ("/system.slice/foo.service", the ControlGroup property)
 * @v type_name  "StateDirectory", "CacheDirectory" or "LogsDirectory"
 */
int project_id_candidate(const char *cgroup, const char *type_name, uint32_t *ret);

/** A random ID in the range, for the next attempt after a collision (never blocks, never fails). */
int project_id_random(uint32_t *ret);
