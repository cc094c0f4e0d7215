/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl chid: this machine's CHIDs as urlboot's stub computes them, for a UKI's .hwids.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_chid_table;

int verb_chid(int argc, char *argv[], const void *data);
