/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The devices systemd's veritysetup generator waits for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "string-util.h"
#include "verity-devices.h"

#define UUID_HEX 32

/* /dev/disk/by-partuuid/ and 32 hex digits as a lowercase UUID (8-4-4-4-12). */
static char *partuuid_path(const char *hex32) {
        char *p;

        if (asprintf(&p, "/dev/disk/by-partuuid/%.8s-%.4s-%.4s-%.4s-%.12s", hex32, hex32 + 8, hex32 + 12,
                     hex32 + 16, hex32 + 20) < 0)
                return NULL;
        for (char *c = p; *c; c++)
                if (*c >= 'A' && *c <= 'F')
                        *c += 'a' - 'A';
        return p;
}

static bool is_hash_hex(const char *s) {
        size_t n = strlen(s);

        return n >= 2 * UUID_HEX && n % 2 == 0 && strspn(s, "0123456789abcdefABCDEF") == n;
}

int verity_device_paths(const char *name, const char *hash, const char *data, const char *hash_dev,
                        char *ret[VERITY_DEVICES]) {
        char *p[VERITY_DEVICES] = {};

        if ((!data || !hash_dev) && !is_hash_hex(hash))
                return -EINVAL;
        if (asprintf(&p[0], "/dev/mapper/%s", name) < 0)
                p[0] = NULL;
        p[1] = data ? strdup(data) : partuuid_path(hash);
        p[2] = hash_dev ? strdup(hash_dev) : partuuid_path(hash + strlen(hash) - UUID_HEX);
        if (!p[0] || !p[1] || !p[2]) {
                for (size_t i = 0; i < VERITY_DEVICES; i++)
                        free(p[i]);
                return -ENOMEM;
        }
        memcpy(ret, p, sizeof p);
        return 0;
}
