/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loading an image from an http(s) URL: with the firmware's HTTP protocol on the address our network
 * boot got, else through the firmware's HTTP boot (the LoadFile dance).
 */
#pragma once

#include <efi.h>
#include <stddef.h>

/** A file fetched by URL, and the device path to load it with (its DeviceHandle's, ending in Uri(url)). */
typedef struct Fetched {
        void *data;                     /* pool memory: ffree() */
        size_t size;
        EFI_DEVICE_PATH *device_path;   /* stays: a handle carries it */
} Fetched;

/**
 * When we were network-booted, GET the URL with EFI_HTTP_PROTOCOL on that NIC and address (no second
 * DHCP round). Otherwise, or when that way is not open, find the LoadFile handle that accepts the URL
 * (PXE handles refuse it) and let the firmware fetch it into memory; retried a few times, reconnecting
 * the network drivers between tries, because they sometimes answer only after a reconnect. Errors the
 * server or TLS gave stand (logged); no redirect is followed. An https URL is fetched with this boot
 * manager's pinned CA alone (efi-tls.h).
 */
EFI_STATUS url_fetch(EFI_HANDLE parent, const char *url, Fetched *ret);
