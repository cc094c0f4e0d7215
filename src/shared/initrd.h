/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Are we running in the initrd?
 */
#pragma once

#include <stdbool.h>

/** $SYSTEMD_IN_INITRD (a boolean) if set and valid, else whether /etc/initrd-release exists. */
bool in_initrd(void);
