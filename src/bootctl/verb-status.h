/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl status: what the firmware, the boot loader and the stub reported (EFI variables).
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_status_table;

int verb_status(int argc, char *argv[], const void *data);
