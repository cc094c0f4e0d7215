/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA the boot manager pins for https, handed to the firmware's TLS.
 *
 * EDK2's HTTP driver reads the variable TlsCaCertificate (EFI signature lists of X.509 certificates)
 * when it sets up TLS for a new HTTP child, and checks the server's certificate chain and host name
 * against it. Setting it before our own requests makes the firmware trust the CA built into this signed
 * program. Two limits of EDK2 (2022.11, Debian 12's OVMF) stay: a CA it loaded earlier in the same boot
 * (from QEMU's fw_cfg or the setup screen) stays trusted beside ours, and it does not check validity
 * dates. What runs is still checked by Secure Boot and the pins; TLS adds privacy and the server's name.
 */
#pragma once

#include <efi.h>
#include <stddef.h>

/** Set TlsCaCertificate (boot services, volatile) to the lists in esl. */
EFI_STATUS tls_pin_ca(const void *esl, size_t size);

/** Export the SHA-256 of each certificate (hex, space-separated) as UrlbootTlsCaSha256 for the OS. */
void tls_export_fingerprints(const void *esl, size_t size);
