/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl measure: the PCR values a boot through urlboot's (or systemd's) stub will produce.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_measure_table;

int verb_measure(int argc, char *argv[], const void *data);
