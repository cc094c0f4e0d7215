/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Whether we were started by shim (the distribution's first stage, signed by Microsoft), which verifies
 * what its second stage loads against its own keys and the MOK list.
 *
 * shim 16 (Debian 12's shim-signed 16.1) takes over LoadImage, StartImage and UnloadImage when Secure
 * Boot is on: a LoadImage from a buffer is verified against db, the MOK list and shim's vendor key, and
 * sections of an image it verified (a UKI's .linux) load without a signature of their own. It refuses
 * LoadImage with BootPolicy TRUE and never reads a file through LoadFile: whatever we start we fetch
 * ourselves and hand over as a buffer (as systemd-boot and systemd-stub do with shim's loader).
 */
#pragma once

#include <efi.h>
#include <stdbool.h>

/** SHIM_LOCK is installed: we run as shim's second stage. */
bool shim_loaded(void);

/** SHIM_IMAGE_LOADER is installed (shim 16): LoadImage itself verifies through shim. */
bool shim_loader_available(void);

/**
 * What to return to shim when we fail: shim fetches and starts us again after NOT_FOUND,
 * INVALID_PARAMETER or HTTP_ERROR, and starts MokManager after SECURITY_VIOLATION or ACCESS_DENIED;
 * neither helps, so under shim every failure is EFI_LOAD_ERROR.
 */
EFI_STATUS shim_exit_status(EFI_STATUS s);
