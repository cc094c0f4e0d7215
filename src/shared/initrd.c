/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Are we running in the initrd?
 */
#include <unistd.h>

#include "env-util.h"
#include "initrd.h"

bool in_initrd(void) {
        int r = getenv_bool("SYSTEMD_IN_INITRD");

        if (r >= 0)
                return r;
        /* Not cached: the answer is cheap, and tests flip the variable. */
        return access("/etc/initrd-release", F_OK) == 0;
}
