/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Time since the CPU started counting (TSC), for the LoaderTime*USec variables.
 */
#pragma once

#include <efi.h>

#include "macro-fundamental.h"

/** Microseconds since the CPU started counting (TSC), for LoaderTime*USec. */
uint64_t time_usec(void);

/** Set a LoaderTime*USec variable to now. */
EFI_STATUS set_loader_time(const CHAR16 *name);
