/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Names, vendor GUIDs and bits of the Boot Loader Interface.
 *
 * Bit numbers are systemd's (efivars-fundamental.h, v258), so that systemd's own bootctl
 * understands what our boot manager and stub report.
 */
#pragma once

#include "macro-fundamental.h"

#define EFI_VENDOR_LOADER_STR "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define EFI_VENDOR_GLOBAL_STR "8be4df61-93ca-11d2-aa0d-00e098032b8c"
/* shim's variables (MokListRT: booted through shim; SbatLevelRT; MokSBStateRT) */
#define EFI_VENDOR_SHIM_STR "605dab50-e046-4300-abb6-3dd810dd8b23"
/* urlboot's own, which are no part of systemd's interface: rollouts, the TLS CA the boot manager pins */
#define EFI_VENDOR_TLS_CA_STR "fd2340d0-3dab-4349-a6c7-3b4f12b48eae"  /* EDK2: TlsCaCertificate */
#define EFI_VENDOR_URLBOOT_STR "3c0a4d1e-8b7f-4c55-9a1e-75726c626f6f"
#define URLBOOT_VAR_ROLLOUT "UrlbootRollout"                   /* NV: the rollout store (rollout.h) */
#define URLBOOT_VAR_ROLLOUT_CHOICE "UrlbootRolloutChoice"      /* volatile: "ID\nREASON" of this boot */
#define URLBOOT_VAR_TLS_CA "UrlbootTlsCaSha256"                /* volatile: SHA-256 of each pinned CA, hex */
#define URLBOOT_VAR_IMAGE_SHA256 "UrlbootImageSHA256"          /* volatile: SHA-256 of the image started, hex */
#define URLBOOT_VAR_ROLLOUT_LIST "UrlbootRolloutList"          /* volatile: the entry list in use (rollout-list.h) */
#define URLBOOT_VAR_ROLLOUT_KEPT "UrlbootRolloutKept"          /* NV, boot services only: the list taken last */
#define URLBOOT_VAR_ROLLOUT_RESET "UrlbootRolloutReset"        /* NV: root asks to forget the list taken last */

/* gnu-efi's headers define these too (same values) */
#ifndef EFI_VARIABLE_NON_VOLATILE
#define EFI_VARIABLE_NON_VOLATILE 0x00000001U
#define EFI_VARIABLE_BOOTSERVICE_ACCESS 0x00000002U
#define EFI_VARIABLE_RUNTIME_ACCESS 0x00000004U
#endif

/* What our programs use for variables they set for the OS: gone at the next boot. */
#define EFI_VARIABLE_VOLATILE_DEFAULT (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define EFI_VARIABLE_PERSISTENT_DEFAULT (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_VOLATILE_DEFAULT)

#define EFI_LOADER_FEATURE_CONFIG_TIMEOUT (UINT64_C(1) << 0)
#define EFI_LOADER_FEATURE_CONFIG_TIMEOUT_ONE_SHOT (UINT64_C(1) << 1)
#define EFI_LOADER_FEATURE_ENTRY_DEFAULT (UINT64_C(1) << 2)
#define EFI_LOADER_FEATURE_ENTRY_ONESHOT (UINT64_C(1) << 3)
#define EFI_LOADER_FEATURE_BOOT_COUNTING (UINT64_C(1) << 4)
#define EFI_LOADER_FEATURE_XBOOTLDR (UINT64_C(1) << 5)
#define EFI_LOADER_FEATURE_RANDOM_SEED (UINT64_C(1) << 6)
#define EFI_LOADER_FEATURE_LOAD_DRIVER (UINT64_C(1) << 7)
#define EFI_LOADER_FEATURE_SORT_KEY (UINT64_C(1) << 8)
#define EFI_LOADER_FEATURE_SAVED_ENTRY (UINT64_C(1) << 9)
#define EFI_LOADER_FEATURE_DEVICETREE (UINT64_C(1) << 10)
#define EFI_LOADER_FEATURE_SECUREBOOT_ENROLL (UINT64_C(1) << 11)
#define EFI_LOADER_FEATURE_RETAIN_SHIM (UINT64_C(1) << 12)
#define EFI_LOADER_FEATURE_MENU_DISABLE (UINT64_C(1) << 13)
#define EFI_LOADER_FEATURE_MULTI_PROFILE_UKI (UINT64_C(1) << 14)
#define EFI_LOADER_FEATURE_REPORT_URL (UINT64_C(1) << 15)
#define EFI_LOADER_FEATURE_TYPE1_UKI (UINT64_C(1) << 16)
#define EFI_LOADER_FEATURE_TYPE1_UKI_URL (UINT64_C(1) << 17)
#define EFI_LOADER_FEATURE_TPM2_ACTIVE_PCR_BANKS (UINT64_C(1) << 18)
/* after v258 (systemd 262's bootctl shows them) */
#define EFI_LOADER_FEATURE_ENTRY_PREFERRED (UINT64_C(1) << 19)
#define EFI_LOADER_FEATURE_KEYBOARD_LAYOUT (UINT64_C(1) << 20)
#define EFI_LOADER_FEATURE_SMBIOS_MEASURED (UINT64_C(1) << 21)

#define EFI_STUB_FEATURE_REPORT_BOOT_PARTITION (UINT64_C(1) << 0)
#define EFI_STUB_FEATURE_PICK_UP_CREDENTIALS (UINT64_C(1) << 1)
#define EFI_STUB_FEATURE_PICK_UP_SYSEXTS (UINT64_C(1) << 2)
#define EFI_STUB_FEATURE_THREE_PCRS (UINT64_C(1) << 3)
#define EFI_STUB_FEATURE_RANDOM_SEED (UINT64_C(1) << 4)
#define EFI_STUB_FEATURE_CMDLINE_ADDONS (UINT64_C(1) << 5)
#define EFI_STUB_FEATURE_CMDLINE_SMBIOS (UINT64_C(1) << 6)
#define EFI_STUB_FEATURE_DEVICETREE_ADDONS (UINT64_C(1) << 7)
#define EFI_STUB_FEATURE_PICK_UP_CONFEXTS (UINT64_C(1) << 8)
#define EFI_STUB_FEATURE_MULTI_PROFILE_UKI (UINT64_C(1) << 9)
#define EFI_STUB_FEATURE_REPORT_STUB_PARTITION (UINT64_C(1) << 10)
#define EFI_STUB_FEATURE_REPORT_URL (UINT64_C(1) << 11)
#define EFI_STUB_FEATURE_SMBIOS_MEASURED (UINT64_C(1) << 12)      /* after v258 */
