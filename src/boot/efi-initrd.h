/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Handing an initrd to the Linux EFI stub: the LoadFile2 protocol on the LINUX_INITRD_MEDIA
 * device path, which the kernel (5.8 and newer) asks for when it starts.
 */
#pragma once

#include <efi.h>

#include "macro-fundamental.h"

/** Offer data as the initrd. @v ret_handle  the handle to pass to initrd_unregister() */
EFI_STATUS initrd_register(const void *data, size_t size, EFI_HANDLE *ret_handle);

/** Withdraw it again (when starting the kernel failed). */
void initrd_unregister(EFI_HANDLE handle);
