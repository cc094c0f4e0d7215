/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading an image from an http(s) URL: with the firmware's HTTP protocol on the address our network
 * boot got, else through the firmware's HTTP boot (the LoadFile dance).
 */
#pragma once

#include <efi.h>

/**
 * When we were network-booted, GET the URL with EFI_HTTP_PROTOCOL on that NIC and address and
 * LoadImage it from memory (no second DHCP round). Otherwise, or when that way is not open, find the
 * LoadFile handle that accepts the URL (PXE handles refuse it), let the firmware fetch it and
 * LoadImage it (BootPolicy TRUE); retried a few times, reconnecting the network drivers between
 * tries, because they sometimes answer only after a reconnect.
 */
EFI_STATUS url_load_image(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret);
