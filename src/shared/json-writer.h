/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Writing JSON for --json output: just enough to emit objects of strings, numbers and booleans.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** Write s as a JSON string (quoted; control characters, quotes and backslashes escaped). NULL → null. */
void json_write_string(FILE *f, const char *s);

/** Write "key": for the next value, with a leading comma unless first. */
void json_write_key(FILE *f, const char *key, bool first);
