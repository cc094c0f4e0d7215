/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loop device references: the name a loop device carries in its lo_file_name (LOOP_CONFIGURE),
 * which udev turns into /dev/disk/by-loop-ref/REF.
 */
#pragma once

#include <stdbool.h>

/** lo_file_name holds 64 bytes including the NUL. */
#define LOOP_REF_MAX 63

/**
 * Whether s may be set as a reference and printed as a udev property as it is: 1 to LOOP_REF_MAX
 * bytes of UTF-8 without control characters (a newline would add a line of its own to what udev
 * imports from urlboot-udev-probe).
 */
bool loop_ref_is_valid(const char *s);
