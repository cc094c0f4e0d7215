/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The pinned CA for https.
 */
#include <unistd.h>

#include "tls-ca.h"

const char *tls_ca_pinned(void) {
        return access(URLBOOT_TLS_CA_PATH, R_OK) < 0 ? NULL : URLBOOT_TLS_CA_PATH;
}
