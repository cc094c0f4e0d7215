/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl event-log: replay the firmware's TPM event log and compare it with the PCRs.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_event_log_table;

int verb_event_log(int argc, char *argv[], const void *data);
