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

/** What devicetree_install() replaced, for devicetree_restore(). */
typedef struct DevicetreeState {
        void *previous;                 /* the table before (NULL: there was none) */
        EFI_PHYSICAL_ADDRESS pages;     /* the installed copy (0: nothing installed) */
        size_t n_pages;
} DevicetreeState;

/** Install blob (size bytes) as the devicetree. The firmware's stays where it is, no longer the table's;
 * state records it. */
EFI_STATUS devicetree_install(const void *blob, size_t size, DevicetreeState *state);

/** The firmware's devicetree the table again and the copy freed, when the kernel did not start (as
 * systemd-stub does: whatever the firmware runs next sees its own devicetree). A no-op when nothing was
 * installed. */
void devicetree_restore(DevicetreeState *state);
