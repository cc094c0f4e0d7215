/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Whether we run in a confidential VM (AMD SEV, Intel TDX, or Hyper-V's isolated VMs), as systemd-stub
 * 262 finds out (its is_confidential_vm()): the host of such a VM is not trusted, so what it hands in
 * unsigned (load options, SMBIOS strings) is not used.
 */
#pragma once

#include <stdbool.h>

bool is_confidential_vm(void);
