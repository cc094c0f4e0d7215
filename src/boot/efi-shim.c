/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * shim's protocols.
 */
#include <efi.h>
#include <efilib.h>

#include "efi-shim.h"

static EFI_GUID shim_lock_protocol_guid = { 0x605dab50, 0xe046, 0x4300, { 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 } };
static EFI_GUID shim_image_loader_guid = { 0x1f492041, 0xfadb, 0x4e59, { 0x9e, 0x57, 0x7c, 0xaf, 0xe7, 0x3a, 0x55, 0xab } };

static bool protocol_exists(EFI_GUID *guid) {
        void *p = NULL;

        return BS->LocateProtocol(guid, NULL, &p) == EFI_SUCCESS && p;
}

bool shim_loaded(void) {
        return protocol_exists(&shim_lock_protocol_guid);
}

bool shim_loader_available(void) {
        return protocol_exists(&shim_image_loader_guid);
}

EFI_STATUS shim_exit_status(EFI_STATUS s) {
        return EFI_ERROR(s) && shim_loaded() ? EFI_LOAD_ERROR : s;
}
