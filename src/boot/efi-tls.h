/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The CA the boot manager pins for https, handed to the firmware's TLS for its own fetches only.
 *
 * EDK2's HTTP driver reads the variable TlsCaCertificate (EFI signature lists of X.509 certificates)
 * whenever it sets up TLS for a new HTTP child, and checks the server's certificate chain and host name
 * against it. That variable is also the machine owner's configuration: the setup screen, QEMU's fw_cfg
 * or urlbootctl tls-ca --vars-file put the CA the firmware's own HTTPS boot trusts there, often
 * non-volatile. So the pin replaces it only while the boot manager fetches, and the owner's list comes
 * back, byte for byte with its attributes, before anything else runs (StartImage(), a reset, a return to the
 * firmware). A power cut in between leaves a copy (UrlbootTlsCaOwner, non-volatile, boot services only)
 * that the next start puts back first.
 *
 * Two limits of EDK2 (2022.11, Debian 12's OVMF) stay, shown in QEMU: its TLS driver keeps every CA it was
 * given in this boot in one store, so a CA the owner's list holds beside ours (loaded when the firmware
 * fetched us) is still trusted for our fetches; and it does not check validity dates. So a trust decision
 * that rests on TLS alone (a rollout's entry list without Secure Boot) is taken only when the owner's list
 * holds no CA besides ours (tls_pin_exclusive()); what runs is still checked by Secure Boot and the pins.
 */
#pragma once

#include <efi.h>
#include <stddef.h>

/** Put back the owner's list if a previous start was cut off while ours was in place. */
void tls_owner_recover(void);

/** The CA lists this boot manager pins (its .tlsca section); nothing is written yet. */
void tls_pin_register(const void *esl, size_t size);

/**
 * Before a fetch of an https URL: our lists replace the owner's (once; later calls do nothing until
 * tls_pin_end()). Without a pinned CA, nothing changes. @ret EFI_SUCCESS or the firmware's error
 */
EFI_STATUS tls_pin_begin(void);

/** Whether our fetches trust our CA alone: the owner's list (read by tls_pin_begin()) has no other. */
bool tls_pin_exclusive(void);

/** Before anything else runs: the owner's list is back as it was. */
void tls_pin_end(void);

/** Export the SHA-256 of each certificate (hex, space-separated) as UrlbootTlsCaSha256 for the OS. */
void tls_export_fingerprints(const void *esl, size_t size);
