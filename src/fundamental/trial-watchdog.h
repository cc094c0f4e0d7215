/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The hardware watchdog that covers a rollout's version on trial from StartImage() on.
 *
 * A version that dies before its system runs (a kernel panic, a hang before systemd starts the trial's
 * deadline) would stop the machine for good: nothing would reset it, count the try or fall back. So the boot
 * manager arms the machine's watchdog, locked so that nothing can switch it off until the next reset, and
 * systemd takes it over as its runtime watchdog (systemd.watchdog_sec= on the version's command line, read by
 * the initrd's systemd and the system's alike). Whatever the version does, either systemd keeps the watchdog
 * fed or the machine resets, and the next start counts. The boot manager arms it only when the version's
 * command line hands it on: without that, systemd would never feed it and even a good version would reset.
 */
#pragma once

#include "macro-fundamental.h"

#define TRIAL_WATCHDOG_DEFAULT_SEC 120U         /* StartImage() to the kernel's watchdog driver */
#define TRIAL_WATCHDOG_MAX_SEC 2000U            /* what the slowest hardware we drive can count */

/**
 * Whether a kernel command line turns systemd's runtime watchdog on: its last systemd.watchdog_sec= word
 * (systemd takes the last) has a value other than 0, "off" or a zero time span. cmdline need not end in NUL.
 */
bool trial_watchdog_cmdline_hands_over(const char *cmdline, size_t n);

/**
 * The Intel 6300ESB watchdog (QEMU's i6300esb) counts two stages of a 20-bit preload each, at about 1 kHz
 * (the 33 MHz PCI clock divided by 2^15): the preload of each stage for a total of seconds, as Linux's
 * i6300esb driver programs it (seconds << 9), clamped to what the register holds.
 */
uint32_t trial_watchdog_esb_preload(unsigned seconds);
