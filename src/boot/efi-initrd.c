/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Handing an initrd to the Linux EFI stub through LoadFile2.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-initrd.h"
#include "memory-fundamental.h"

#define LINUX_INITRD_MEDIA_GUID { 0x5568e427, 0x68fc, 0x4f3d, { 0xac, 0x74, 0xca, 0x55, 0x52, 0x31, 0xcc, 0x68 } }
#define LOAD_FILE2_PROTOCOL_GUID { 0x4006c0c1, 0xfcb3, 0x403e, { 0x99, 0x6d, 0x4a, 0x6c, 0x87, 0x24, 0xe0, 0x6d } }

typedef struct LoadFile2 LoadFile2;
struct LoadFile2 {
        EFI_STATUS(EFIAPI *LoadFile)(LoadFile2 *this, EFI_DEVICE_PATH *path, BOOLEAN boot_policy, UINTN *size,
                                     void *buffer);
};

typedef struct InitrdLoader {
        LoadFile2 protocol;     /* first: the firmware hands us this pointer back */
        const void *data;
        size_t size;
} InitrdLoader;

typedef struct {
        VENDOR_DEVICE_PATH vendor;
        EFI_DEVICE_PATH end;
} __attribute__((packed)) InitrdDevicePath;

static InitrdDevicePath initrd_device_path = {
        .vendor = {
                .Header = { MEDIA_DEVICE_PATH, MEDIA_VENDOR_DP,
                            { sizeof(VENDOR_DEVICE_PATH), 0 } },
                .Guid = LINUX_INITRD_MEDIA_GUID,
        },
        .end = { END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, { sizeof(EFI_DEVICE_PATH), 0 } },
};

static EFI_GUID load_file2_guid = LOAD_FILE2_PROTOCOL_GUID;

static EFI_STATUS EFIAPI initrd_load_file(LoadFile2 *this, EFI_DEVICE_PATH *path, BOOLEAN boot_policy, UINTN *size,
                                          void *buffer) {
        InitrdLoader *loader = (InitrdLoader *) this;

        if (!this || !size)
                return EFI_INVALID_PARAMETER;
        /* LoadFile2 never serves boot selections. */
        if (boot_policy)
                return EFI_UNSUPPORTED;
        if (!buffer || *size < loader->size) {
                *size = loader->size;
                return EFI_BUFFER_TOO_SMALL;
        }
        CopyMem(buffer, (void *) loader->data, loader->size);
        *size = loader->size;
        return EFI_SUCCESS;
}

EFI_STATUS initrd_register(const void *data, size_t size, EFI_HANDLE *ret_handle) {
        _cleanup_ffree_ InitrdLoader *loader = NULL;
        EFI_HANDLE handle = NULL;
        EFI_STATUS s;

        fassert(data || size == 0);
        fassert(ret_handle);

        loader = fmalloc(sizeof *loader);
        if (!loader)
                return EFI_OUT_OF_RESOURCES;
        *loader = (InitrdLoader) { .protocol.LoadFile = initrd_load_file, .data = data, .size = size };

        s = BS->InstallMultipleProtocolInterfaces(&handle, &DevicePathProtocol, &initrd_device_path, &load_file2_guid,
                                                  loader, NULL);
        if (EFI_ERROR(s))
                return s;
        TAKE_PTR(loader);       /* the firmware holds it now, until initrd_unregister() */
        *ret_handle = handle;
        return EFI_SUCCESS;
}

void initrd_unregister(EFI_HANDLE handle) {
        InitrdLoader *loader = NULL;

        if (!handle)
                return;
        if (BS->HandleProtocol(handle, &load_file2_guid, (void **) &loader) != EFI_SUCCESS)
                return;
        (void) BS->UninstallMultipleProtocolInterfaces(handle, &DevicePathProtocol, &initrd_device_path,
                                                       &load_file2_guid, loader, NULL);
        ffree(loader);
}
