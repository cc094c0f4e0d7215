/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The devicetree the kernel gets: the firmware's (an EFI configuration table, on most ARM machines), and
 * installing one of a UKI's in its place, as systemd-stub does (a copy in ACPI-reclaim memory, fixed up by
 * the firmware's EFI_DT_FIXUP_PROTOCOL where it has one, as the configuration table).
 */
#pragma once

#include <efi.h>
#include <efilib.h>

#include "macro-fundamental.h"

/** The firmware's devicetree and the size its header gives, or NULL when it has none (most x86 firmware). */
const void *firmware_devicetree(size_t *ret_size);

/** Install blob (size bytes) as the devicetree. The firmware's stays where it is, no longer the table's. */
EFI_STATUS devicetree_install(const void *blob, size_t size);
