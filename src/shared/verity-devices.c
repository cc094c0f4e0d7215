/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What systemd derives from a verity root hash.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity-devices.h"

#define UUID_HEX 32
#define HASH_HEX_MAX 128

bool verity_hash_is_valid(const char *s) {
        size_t n = strlen(s);

        assert(s);

        /* Fewer than 128 bits names no partition. */
        if (n < UUID_HEX || n % 2 != 0 || n > HASH_HEX_MAX)
                return false;
        return strspn(s, "0123456789abcdefABCDEF") == n;
}

void verity_partition_uuid(const char *hash, bool hash_partition, char ret[37]) {
        const char *h = hash_partition ? hash + strlen(hash) - UUID_HEX : hash;

        assert(hash);
        assert(ret);

        snprintf(ret, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
        for (char *c = ret; *c; c++)
                if (*c >= 'A' && *c <= 'F')
                        *c += 'a' - 'A';
}

static char *partuuid_path(const char *hash, bool hash_partition) {
        char uuid[37], *p;

        verity_partition_uuid(hash, hash_partition, uuid);
        return asprintf(&p, "/dev/disk/by-partuuid/%s", uuid) < 0 ? NULL : p;
}

int verity_device_paths(const char *name, const char *hash, const char *data, const char *hash_dev,
                        char *ret[VERITY_DEVICES]) {
        char *p[VERITY_DEVICES] = {};

        assert(name);
        assert(hash);
        assert(ret);

        if ((!data || !hash_dev) && !verity_hash_is_valid(hash))
                return -EINVAL;
        if (asprintf(&p[0], "/dev/mapper/%s", name) < 0)
                p[0] = NULL;
        p[1] = data ? strdup(data) : partuuid_path(hash, false);
        p[2] = hash_dev ? strdup(hash_dev) : partuuid_path(hash, true);
        if (!p[0] || !p[1] || !p[2]) {
                for (size_t i = 0; i < VERITY_DEVICES; i++)
                        free(p[i]);
                return -ENOMEM;
        }
        memcpy(ret, p, sizeof p);
        return 0;
}
