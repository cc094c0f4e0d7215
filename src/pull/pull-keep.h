/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * --keep-download=FILE: the served file kept as it arrived, beside the image it was unpacked into, so that
 * urlboot-serve can hand exactly these bytes on (the pins of the signed command line name them). It is written
 * into a hidden temporary beside FILE at the offsets it arrives at, and takes FILE's name only once the image
 * was verified and placed; a failed attempt removes it.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "pull-attempt.h"

/** Make the temporary (a->keep_fd, a->keep_tmp) when --keep-download= is set. @ret 0, <0 via attempt_fail() */
int pull_keep_open(Attempt *a);

/** Bytes of the served file at offset. @ret 0, negative errno */
int pull_keep_write(Attempt *a, const void *data, size_t size, uint64_t offset);

/** Give the kept file its name (replacing an older one); a failure is only a warning (the image is placed). */
int pull_keep_place(Attempt *a);

/** Remove the temporary, if any, and close it. */
void pull_keep_abandon(Attempt *a);
