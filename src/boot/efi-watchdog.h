/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Arming the machine's hardware watchdog for a version on trial (src/fundamental/trial-watchdog.h says why).
 *
 * Driven: the Intel 6300ESB watchdog (QEMU's i6300esb, libvirt's default model), found on the PCI bus. It is
 * armed locked ("nowayout"): nothing can switch it off until the machine resets; Linux's i6300esb driver
 * then reloads it with its own heartbeat and systemd's runtime watchdog keeps it fed. Machines without it
 * (Intel's iTCO is not driven yet) are not armed, and the boot manager says so.
 */
#pragma once

#include <efi.h>

/**
 * Arm the watchdog to reset the machine in about seconds unless it is fed, and lock it.
 * @ret EFI_SUCCESS with *ret_name naming the hardware, EFI_NOT_FOUND when there is none we drive,
 *      EFI_DEVICE_ERROR when it did not take the setting
 */
EFI_STATUS watchdog_arm_locked(unsigned seconds, const char **ret_name);
