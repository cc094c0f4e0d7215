/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where an attempt writes and how its result takes the final name.
 *
 * Everything happens relative to the image root's file descriptor, with operations that never
 * follow a symlink: the temporary ".#NAME.<16 hex digits>" (a file, or a directory for trees) is
 * created with O_EXCL/mkdirat and mode 0600/0700, held with flock() while the pull runs, and
 * renamed with renameat2() (RENAME_NOREPLACE, or RENAME_EXCHANGE for --force). A temporary whose
 * lock nobody holds was left by a pull that was killed: the next pull of the same name removes it.
 */
#pragma once

#include <stdint.h>

#include "pull-attempt.h"

/** Fail with a message that says what to do if needed bytes do not fit in the image root. */
int pull_check_free_space(Attempt *a, uint64_t needed);

/** Create and lock the temporary file (raw) or directory (tar): a->tmp_name, a->fd. */
int pull_make_temporary(Attempt *a);

/** Remove the temporary, if any (a failed attempt). */
void pull_remove_temporary(Attempt *a);

/** Give the verified result its final name. */
int pull_place_result(Attempt *a);

/**
 * Remove temporaries of final_name that no running pull holds (left by a killed one).
 * @ret how many were removed, or negative errno if the image root cannot be read
 */
int pull_remove_stale_temporaries(int root_fd, const char *final_name);
