/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl list: the entries the boot manager would show, in its order.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_list_table;

int verb_list(int argc, char *argv[], const void *data);
