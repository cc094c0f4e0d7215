/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA urlboot pins for https: /etc/urlboot/tls-ca.pem. In the initrd it comes from the signed UKI
 * (urlbootctl build-uki --ca=); an administrator may place one on an installed system too. When it exists,
 * https servers are checked against it alone, not against the system's store.
 */
#pragma once

#define URLBOOT_TLS_CA_PATH "/etc/urlboot/tls-ca.pem"

/** URLBOOT_TLS_CA_PATH ($URLBOOT_TLS_CA when set) when it exists (only read for https), else NULL: the system's store. */
const char *tls_ca_pinned(void);
