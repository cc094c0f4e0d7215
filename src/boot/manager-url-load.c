/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Fetching a URL into memory: with the firmware's HTTP protocol on the NIC and address our own network boot
 * used (efi-http.c), else through the firmware's LoadFile, which starts HTTP boot over, DHCP included. The
 * bytes come with a device path that ends in Uri(url), for LoadImage() from memory (manager-load.c).
 *
 * From memory, because shim's LoadImage (which verifies through the MOK list) takes nothing else: no
 * BootPolicy TRUE, no LoadFile. Firmware LoadImage checks a buffer against db as it checks a file.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "device-path.h"
#include "efi-cleanup.h"
#include "efi-firmware.h"
#include "efi-http.h"
#include "efi-log.h"
#include "efi-tls.h"
#include "manager-url-load.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

#define LOADFILE_TRIES 3

/* Whether this LoadFile handle fetches the URL (PXE handles answer "invalid parameter" or "not found"),
 * and how large the file is. */
static bool handle_accepts(EFI_HANDLE h, void *dp, EFI_LOAD_FILE_INTERFACE **ret_lf, UINTN *ret_size) {
        EFI_LOAD_FILE_INTERFACE *lf = NULL;
        UINTN size = 0;
        EFI_STATUS s;

        if (BS->HandleProtocol(h, &LoadFileProtocol, (void **) &lf) != EFI_SUCCESS)
                return false;
        s = lf->LoadFile(lf, dp, TRUE, &size, NULL);
        if (s != EFI_BUFFER_TOO_SMALL || size == 0)
                return false;
        *ret_lf = lf;
        *ret_size = size;
        return true;
}

/* One round over the LoadFile handles: the first that accepts the URL fetches it into memory. */
static EFI_STATUS fetch_loadfile_once(void *dp, bool reconnect, Fetched *ret) {
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
        for (size_t i = 0; i < n; i++) {
                _cleanup_ffree_ uint8_t *buf = NULL;
                EFI_LOAD_FILE_INTERFACE *lf;
                UINTN size;

                if (!handle_accepts(handles[i], dp, &lf, &size))
                        continue;
                buf = fmalloc(size);
                if (!buf)
                        return EFI_OUT_OF_RESOURCES;
                s = lf->LoadFile(lf, dp, TRUE, &size, buf);
                if (EFI_ERROR(s))
                        continue;
                /* The firmware rewrote the handle's path to end in our Uri(): the image's DeviceHandle. */
                *ret = (Fetched) { .data = TAKE_PTR(buf), .size = size, .device_path = DevicePathFromHandle(handles[i]) };
                return EFI_SUCCESS;
        }
        return EFI_NOT_FOUND;
}

static EFI_STATUS fetch_loadfile(const char *url, Fetched *ret) {
        _cleanup_ffree_ void *dp = NULL;
        size_t dp_size;
        EFI_STATUS s = EFI_NOT_FOUND;

        if (device_path_make_url(url, &dp, &dp_size) < 0)
                return EFI_OUT_OF_RESOURCES;
        for (unsigned attempt = 0; attempt < LOADFILE_TRIES && EFI_ERROR(s); attempt++)
                s = fetch_loadfile_once(dp, attempt > 0, ret);
        return s;
}

/* Fetch the URL ourselves through the NIC and address we were booted with. A handle of our own carries
 * the path NIC/IPv4(...)/Uri(url) (with a NUL, as EDK2 writes it), as the firmware's HTTP boot would:
 * LoadImage names it the image's DeviceHandle, where stubs (ours and systemd's) read the URL from; it
 * stays for them. EFI_UNSUPPORTED: not this way (not network-booted, no HTTP service, no length...). */
static EFI_STATUS fetch_direct(EFI_HANDLE parent, const char *url, Fetched *ret) {
        _cleanup_ffree_ void *dp = NULL, *data = NULL;
        EFI_LOADED_IMAGE *li = NULL;
        EFI_DEVICE_PATH *own;
        EFI_HANDLE handle = NULL;
        size_t dp_size, size;
        EFI_STATUS s;

        if (BS->HandleProtocol(parent, &LoadedImageProtocol, (void **) &li) != EFI_SUCCESS || !li ||
            !(own = DevicePathFromHandle(li->DeviceHandle)))
                return EFI_UNSUPPORTED;
        if (device_path_replace_url(own, DEVICE_PATH_FIRMWARE_MAX, url, &dp, &dp_size) < 0)
                return EFI_UNSUPPORTED;
        s = http_get(own, url, &data, &size);
        if (EFI_ERROR(s))
                return s;
        s = BS->InstallMultipleProtocolInterfaces(&handle, &DevicePathProtocol, dp, NULL);
        if (EFI_ERROR(s))
                return EFI_UNSUPPORTED;
        *ret = (Fetched) { .data = TAKE_PTR(data), .size = size, .device_path = TAKE_PTR(dp) };
        return EFI_SUCCESS;
}

EFI_STATUS url_fetch(EFI_HANDLE parent, const char *url, Fetched *ret) {
        EFI_STATUS s;

        fassert(url);
        fassert(ret);

        /* our CA alone, for our https fetches; the firmware's own list is back before anything runs */
        if (fstartswith(url, "https://")) {
                s = tls_pin_begin();
                if (EFI_ERROR(s))
                        return s;
        }
        s = fetch_direct(parent, url, ret);
        /* An answer from the server (an error status, a redirect) or a TLS verdict stands: the firmware's
         * LoadFile would reach the same one, a DHCP round later. */
        if (s != EFI_UNSUPPORTED && s != EFI_TIMEOUT && s != EFI_DEVICE_ERROR && s != EFI_NO_RESPONSE)
                return s;
        if (s != EFI_UNSUPPORTED)
                log_efi(s, "fetching %s with the firmware's HTTP protocol failed; trying its HTTP boot", url);
        return fetch_loadfile(url, ret);
}
