/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * urlbootctl add-uri / remove-uri: Boot#### entries that make the firmware HTTP-boot a URL.
 */
#pragma once

#include "command-table.h"

extern const CommandTable verb_add_uri_table;
extern const CommandTable verb_remove_uri_table;

int verb_add_uri(int argc, char *argv[], const void *data);
int verb_remove_uri(int argc, char *argv[], const void *data);
