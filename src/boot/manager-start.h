/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Starting the chosen entry: its start counted, its image loaded (manager-load.h), measured and started.
 */
#pragma once

#include <efi.h>

#include "boot-entry.h"

/**
 * Count a start of the entry (rename its file), load it, and start it; returns only when that failed.
 * *ret_started says whether it got as far as StartImage() (a rollout's fetch failure did not).
 */
EFI_STATUS start_entry(Menu *m, EFI_HANDLE image, BootEntry *e, const char *options_override, bool *ret_started);
