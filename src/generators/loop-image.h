/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Loop devices from the kernel command line (systemd's TODO "systemd-loop-generator"): each
 * "rd.urlboot.loop=PATH" (in the booted system "urlboot.loop=PATH") attaches an image file that is already
 * there, with no copy, as urlboot-loop@<escaped PATH>.service: the file's name is the loop reference, so
 * /dev/disk/by-loop-ref/NAME[-partN], root=gpt-auto (for rootdisk.raw) and roothash= work as for a
 * downloaded image. In the initrd the file is in the initramfs (the UKI's .initrd or another initrd: the kernel
 * unpacked them all into RAM), so it must exist when the generator runs; elsewhere it
 * may be on a file system mounted later (the unit waits for it, RequiresMountsFor=).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/**
 * Check one loop request.
 * @v initrd   the file must exist now, as a regular file
 * @v reason   why not, for one log line
 * @ret 0, -EINVAL (not an absolute normalized path, a name no loop reference can be), -ENOENT
 *      (missing in the initrd), -EISDIR/-ENODEV (not a regular file)
 */
int loop_image_check(const char *path, bool initrd, char *reason, size_t reason_size);
