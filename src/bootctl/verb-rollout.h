/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "command-table.h"

extern const CommandTable verb_rollout_table;

/** urlbootctl rollout: show, bless, reset, is-trial. */
int verb_rollout(int argc, char *argv[], const void *data);
