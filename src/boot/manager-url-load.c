/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The LoadFile dance: a Uri() device path handed to each LoadFile handle in turn.
 */
#include <efi.h>
#include <efilib.h>

#include "device-path.h"
#include "manager-url-load.h"
#include "memory-fundamental.h"

#define LOADFILE_TRIES 3

/* The LoadFile dance: the firmware's HTTP boot fetches the URL for the handle that accepts it. */
EFI_STATUS url_load_image(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret) {
        void *dp;
        size_t dp_size;
        EFI_STATUS s = EFI_NOT_FOUND;

        if (device_path_make_url(url, &dp, &dp_size) < 0)
                return EFI_OUT_OF_RESOURCES;

        for (unsigned attempt = 0; attempt < LOADFILE_TRIES && EFI_ERROR(s); attempt++) {
                EFI_HANDLE *handles = NULL;
                UINTN n = 0;

                s = BS->LocateHandleBuffer(ByProtocol, &LoadFileProtocol, NULL, &n, &handles);
                if (attempt > 0 && !EFI_ERROR(s)) {
                        /* Network drivers sometimes answer again only after a reconnect. */
                        for (UINTN i = 0; i < n; i++)
                                (void) BS->ConnectController(handles[i], NULL, NULL, TRUE);
                        BS->Stall(500 * 1000);
                }
                if (EFI_ERROR(s))
                        break;
                s = EFI_NOT_FOUND;
                for (UINTN i = 0; i < n; i++) {
                        EFI_LOAD_FILE_INTERFACE *lf = NULL;
                        EFI_DEVICE_PATH *hdp;
                        UINTN size = 0;
                        EFI_STATUS k;

                        if (BS->HandleProtocol(handles[i], &LoadFileProtocol, (void **) &lf) != EFI_SUCCESS)
                                continue;
                        k = lf->LoadFile(lf, dp, TRUE, &size, NULL);
                        /* PXE handles answer "invalid parameter" or "not found": not ours. */
                        if (k != EFI_BUFFER_TOO_SMALL && !(k == EFI_SUCCESS && size == 0))
                                continue;
                        /* The firmware rewrote the handle's path to end in our Uri(). */
                        hdp = DevicePathFromHandle(handles[i]);
                        if (!hdp)
                                continue;
                        s = BS->LoadImage(TRUE, parent, hdp, NULL, 0, ret);
                        if (!EFI_ERROR(s))
                                break;
                }
                FreePool(handles);
        }
        ffree(dp);
        return s;
}
