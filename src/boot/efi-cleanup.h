/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Cleanup attributes for the firmware's resources, beside _cleanup_ffree_ (memory-fundamental.h):
 *
 *     _cleanup_file_close_ EFI_FILE *root = volume_open_root(device);
 *     _cleanup_ffree_ CHAR16 *text = DevicePathToStr(path);
 *
 * _cleanup_ffree_ also releases what gnu-efi allocates (DevicePathToStr(), FileDevicePath(),
 * LocateHandleBuffer()): its FreePool() and our ffree() both hand the memory back to the boot
 * services pool.
 */
#pragma once

#include <efi.h>
#include <efilib.h>

#include "memory-fundamental.h"

static inline void file_closep(EFI_FILE **f) {
        if (*f)
                (void) (*f)->Close(*f);
}

static inline void event_closep(EFI_EVENT *e) {
        if (*e)
                (void) BS->CloseEvent(*e);
}

#define _cleanup_file_close_ _cleanup_(file_closep)
#define _cleanup_event_close_ _cleanup_(event_closep)
