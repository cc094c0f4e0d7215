/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What the served file must hash to: a pinned digest, or SHA256SUMS / FILE.sha256 beside it,
 * whose signature is checked for verify=signature.
 */
#pragma once

#include "pull-attempt.h"

/** Fill a->expected ("" when nothing is to be checked). @ret 0 or negative errno (a->error says why) */
int pull_load_expected_digest(Attempt *a);
