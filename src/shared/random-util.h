/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Random numbers for names and identifiers (temporary files, sockets, units, quota projects): unique
 * enough, never secret, and never blocking. Early in the initrd the kernel's pool may not be ready yet;
 * a blocking getrandom() then waits until the kernel has made entropy from timer jitter, about a second
 * under emulation, and every download in the initrd paid it before its first byte.
 */
#pragma once

#include <stdint.h>

/** 64 bits from the kernel without waiting for its pool (GRND_INSECURE, then GRND_NONBLOCK), else
 *  mixed from the process id, a counter and the monotonic and real-time clocks. Never fails. */
uint64_t random_u64_insecure(void);
