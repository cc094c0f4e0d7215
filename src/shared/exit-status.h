/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Exit statuses every urlboot command shares: 0 success, 1 failure, 2 a usage error (an unknown option,
 * a malformed value), as systemd's tools and the LSB use them.
 */
#pragma once

#include <stdlib.h>

#define EXIT_USAGE 2

/* A usage error inside a program, as a negative errno: a value no errno takes, so that a real EINVAL from
 * the system is never taken for the user's mistake (and never has to be rewritten to hide it). */
#define EUSAGE 4096

/** Log a usage error (one line, no %m) and return -EUSAGE. */
#define log_usage_error(...) log_internal(LOG_ERR, EUSAGE, __VA_ARGS__)
