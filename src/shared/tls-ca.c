/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The pinned CA for https.
 */
#include <stdlib.h>
#include <unistd.h>

#include "tls-ca.h"

const char *tls_ca_pinned(void) {
        /* another place for tests of the programs that read it (as $URLBOOT_EFIVARFS is for efivarfs) */
        const char *path = getenv("URLBOOT_TLS_CA") ?: URLBOOT_TLS_CA_PATH;

        return access(path, R_OK) < 0 ? NULL : path;
}
