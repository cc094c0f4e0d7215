/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * One HTTP GET with the firmware's EFI_HTTP_PROTOCOL, on the NIC and the IPv4 address that firmware
 * HTTP boot already configured: a network-booted program's device path names both
 * (.../MAC(...)/IPv4(10.0.2.15,...,255.255.255.0)/Uri(...)). Unlike the firmware's LoadFile for a new
 * URL, it does not start HTTP boot over, so there is no second DHCP round (OVMF collects offers for
 * about 4 s in every round).
 */
#pragma once

#include <efi.h>

/**
 * GET url through the NIC and address of the device path via, into pool memory (ffree()).
 * @ret EFI_SUCCESS; EFI_NOT_FOUND when the server answered with an error status (logged);
 *      EFI_PROTOCOL_ERROR for a redirect, which is never followed (logged); EFI_SECURITY_VIOLATION
 *      when TLS failed (certificate not from the pinned CA, wrong host name, no CA at all; logged);
 *      EFI_UNSUPPORTED when this way is not open (no address in via, no HTTP service on the NIC, no
 *      Content-Length) and the firmware's LoadFile should fetch it; other errors of the transfer
 *      (EFI_TIMEOUT, EFI_DEVICE_ERROR, ...)
 */
EFI_STATUS http_get(EFI_DEVICE_PATH *via, const char *url, void **ret, size_t *ret_size);
