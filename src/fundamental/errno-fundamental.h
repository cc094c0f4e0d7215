/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Error numbers for code shared with the boot loader.
 *
 * Functions return negative errno values in both worlds; UEFI builds have no <errno.h>,
 * so they get the Linux numbers, which is what the host tests check against.
 */
#pragma once

#if defined(URLBOOT_FREESTANDING)
#  define EPERM 1
#  define ENOENT 2
#  define EIO 5
#  define E2BIG 7
#  define ENOMEM 12
#  define EEXIST 17
#  define EFBIG 27
#  define EINVAL 22
#  define ENOSPC 28
#  define ERANGE 34
#  define ENODATA 61
#  define EOVERFLOW 75
#  define EBADMSG 74
#  define EILSEQ 84
#  define EOPNOTSUPP 95
#  define EADDRNOTAVAIL 99
#else
#  include <errno.h>
#endif
