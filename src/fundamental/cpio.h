/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * cpio archives in the "newc" format the kernel unpacks from an initrd (Documentation/driver-api/
 * early-userspace/buffer-format.rst), made as systemd-stub makes them so that what is measured is
 * byte for byte what systemd would measure: first a directory record for each component of the
 * target directory (0555, the last one with its own mode), then one record per file (inodes counted
 * from 1, uid/gid 0, one link, mtime 0 for stable measurements, no device numbers), then the
 * TRAILER!!! record. Names and data are padded with NUL bytes to multiples of 4.
 */
#pragma once

#include "macro-fundamental.h"

typedef struct CpioFile {
        const char *name;       /* a file name, no slash */
        const void *data;
        size_t size;
} CpioFile;

/** Sort files by name, byte-wise (systemd sorts the UTF-16 names; ours are ASCII, the order is the same). */
void cpio_sort(CpioFile *files, size_t n);

/**
 * An archive placing each file in target_dir ("a/b", created with dir_mode; its parents 0555).
 * @ret 0, -E2BIG (a file of 4 GiB or more), -ENOMEM
 */
int cpio_pack(const char *target_dir, uint32_t dir_mode, uint32_t file_mode, const CpioFile *files, size_t n,
              void **ret, size_t *ret_size);
