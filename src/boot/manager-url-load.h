/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading an image from an http(s) URL through the firmware's HTTP boot: the LoadFile dance.
 */
#pragma once

#include <efi.h>

/**
 * Find the LoadFile handle that accepts the URL (PXE handles refuse it), let the firmware fetch it
 * and LoadImage it (BootPolicy TRUE). Retried a few times, reconnecting the network drivers between
 * tries, because they sometimes answer only after a reconnect.
 */
EFI_STATUS url_load_image(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret);
