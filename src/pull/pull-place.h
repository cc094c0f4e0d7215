/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where an attempt writes and how its result takes the final name: the temporary beside the final
 * path, free space, the atomic rename.
 */
#pragma once

#include <stdint.h>

#include "pull-attempt.h"

/** Fail with a message that says what to do if needed bytes do not fit beside the final path. */
int pull_check_free_space(Attempt *a, uint64_t needed);

/** Create the temporary file (raw) or directory (tar). */
int pull_make_temporary(Attempt *a);

/** Give the verified result its final name. */
int pull_place_result(Attempt *a);
