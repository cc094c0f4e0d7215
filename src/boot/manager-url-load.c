/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading an image from a URL: first with the firmware's HTTP protocol on the NIC and address our own
 * network boot used (efi-http.c), else the LoadFile dance: a Uri() device path handed to each
 * LoadFile handle in turn, on which the firmware starts HTTP boot over, DHCP included.
 */
#include <efi.h>
#include <efilib.h>

#include "device-path.h"
#include "efi-cleanup.h"
#include "efi-firmware.h"
#include "efi-http.h"
#include "efi-log.h"
#include "manager-url-load.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

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

/* A file we fetched, offered as the firmware's HTTP boot offers one: a handle whose device path is
 * NIC/IPv4(...)/Uri(url) with a LoadFile protocol. LoadImage() then names it the image's DeviceHandle,
 * where stubs (ours and systemd's) read the URL from; it stays for them. */
typedef struct FetchedFile {
        EFI_LOAD_FILE_INTERFACE load_file;      /* first: LoadFile's This is this structure */
        uint8_t *data;
        size_t size;
} FetchedFile;

static EFI_STATUS EFIAPI fetched_load_file(EFI_LOAD_FILE_INTERFACE *this, EFI_DEVICE_PATH *path, BOOLEAN boot_policy,
                                           UINTN *size, VOID *buffer) {
        FetchedFile *f = (FetchedFile *) this;

        if (!f->data)
                return EFI_NOT_FOUND;
        if (!buffer || *size < f->size) {
                *size = f->size;
                return EFI_BUFFER_TOO_SMALL;
        }
        fmemcpy(buffer, f->data, f->size);
        *size = f->size;
        return EFI_SUCCESS;
}

/* Fetch the URL ourselves through the NIC and address we were booted with and load it as LoadFile would
 * have. EFI_UNSUPPORTED: not this way (not network-booted, no HTTP service, a chunked answer...). */
static EFI_STATUS load_direct(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret) {
        _cleanup_ffree_ void *dp = NULL;
        _cleanup_ffree_ FetchedFile *f = NULL;
        EFI_LOADED_IMAGE *li = NULL;
        EFI_DEVICE_PATH *own;
        EFI_HANDLE handle = NULL;
        size_t dp_size;
        void *data;
        EFI_STATUS s;

        if (BS->HandleProtocol(parent, &LoadedImageProtocol, (void **) &li) != EFI_SUCCESS || !li ||
            !(own = DevicePathFromHandle(li->DeviceHandle)))
                return EFI_UNSUPPORTED;
        if (device_path_replace_url(own, DEVICE_PATH_FIRMWARE_MAX, url, &dp, &dp_size) < 0)
                return EFI_UNSUPPORTED;
        f = fmalloc(sizeof *f);
        if (!f)
                return EFI_OUT_OF_RESOURCES;
        *f = (FetchedFile) { .load_file.LoadFile = fetched_load_file };
        s = http_get(own, url, &data, &f->size);
        if (EFI_ERROR(s))
                return s;
        f->data = data;
        s = BS->InstallMultipleProtocolInterfaces(&handle, &DevicePathProtocol, dp, &LoadFileProtocol, &f->load_file,
                                                  NULL);
        if (EFI_ERROR(s)) {
                ffree(f->data);
                return EFI_UNSUPPORTED;
        }
        s = BS->LoadImage(TRUE, parent, dp, NULL, 0, ret);
        /* The image is copied; the handle and its path stay, the bytes go. */
        ffree(f->data);
        f->data = NULL;
        TAKE_PTR(dp);
        TAKE_PTR(f);
        return s;
}

EFI_STATUS url_load_image(EFI_HANDLE parent, const char *url, EFI_HANDLE *ret) {
        _cleanup_ffree_ void *dp = NULL;
        size_t dp_size;
        EFI_STATUS s;

        s = load_direct(parent, url, ret);
        /* An answer from the server (an error status) or a verdict on the image (Secure Boot) stands;
         * the firmware's LoadFile would reach the same one, a DHCP round later. */
        if (s == EFI_SUCCESS || s == EFI_NOT_FOUND || s == EFI_SECURITY_VIOLATION || s == EFI_ACCESS_DENIED)
                return s;
        if (s != EFI_UNSUPPORTED)
                log_efi(s, "fetching %s with the firmware's HTTP protocol failed; trying its HTTP boot", url);
        s = EFI_NOT_FOUND;
        if (device_path_make_url(url, &dp, &dp_size) < 0)
                return EFI_OUT_OF_RESOURCES;
        for (unsigned attempt = 0; attempt < LOADFILE_TRIES && EFI_ERROR(s); attempt++)
                s = load_once(parent, dp, attempt > 0, ret);
        return s;
}
