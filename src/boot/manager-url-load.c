/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The LoadFile dance: a Uri() device path handed to each LoadFile handle in turn.
 */
#include <efi.h>
#include <efilib.h>

#include "device-path.h"
#include "efi-cleanup.h"
#include "manager-url-load.h"
#include "memory-fundamental.h"

#define LOADFILE_TRIES 3

/* Whether this LoadFile handle fetches the URL: PXE handles answer "invalid parameter" or "not found". */
static bool handle_accepts(EFI_HANDLE h, void *dp) {
        EFI_LOAD_FILE_INTERFACE *lf = NULL;
        UINTN size = 0;
        EFI_STATUS s;

        if (BS->HandleProtocol(h, &LoadFileProtocol, (void **) &lf) != EFI_SUCCESS)
                return false;
        s = lf->LoadFile(lf, dp, TRUE, &size, NULL);
        return s == EFI_BUFFER_TOO_SMALL || (s == EFI_SUCCESS && size == 0);
}

/* One round over the LoadFile handles: the first that accepts the URL loads it. */
static EFI_STATUS load_once(EFI_HANDLE parent, void *dp, bool reconnect, EFI_HANDLE *ret) {
        _cleanup_ffree_ EFI_HANDLE *handles = NULL;
        UINTN n = 0;
        EFI_STATUS s;

        s = BS->LocateHandleBuffer(ByProtocol, &LoadFileProtocol, NULL, &n, &handles);
        if (EFI_ERROR(s))
                return s;
        if (reconnect) {
                /* Network drivers sometimes answer again only after a reconnect. */
                for (size_t i = 0; i < n; i++)
                        (void) BS->ConnectController(handles[i], NULL, NULL, TRUE);
                BS->Stall(500 * 1000);
        }
        s = EFI_NOT_FOUND;
        for (size_t i = 0; i < n && EFI_ERROR(s); i++) {
                EFI_DEVICE_PATH *hdp;

                if (!handle_accepts(handles[i], dp))
                        continue;
                /* The firmware rewrote the handle's path to end in our Uri(). */
                hdp = DevicePathFromHandle(handles[i]);
                if (hdp)
                        s = BS->LoadImage(TRUE, parent, hdp, NULL, 0, ret);
        }
        return s;
}

/* The LoadFile dance: the firmware's HTTP boot fetches the URL for the handle that accepts it. */
EFI_STATUS url_load_image(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret) {
        _cleanup_ffree_ void *dp = NULL;
        size_t dp_size;
        EFI_STATUS s = EFI_NOT_FOUND;

        if (device_path_make_url(url, &dp, &dp_size) < 0)
                return EFI_OUT_OF_RESOURCES;
        for (unsigned attempt = 0; attempt < LOADFILE_TRIES && EFI_ERROR(s); attempt++)
                s = load_once(parent, dp, attempt > 0, ret);
        return s;
}
