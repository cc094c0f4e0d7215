/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading configuration from environment variables.
 */
#pragma once

/**
 * Parse a boolean environment variable.
 * @ret 1 or 0 for a valid value, -ENXIO when unset, -EINVAL when not a boolean
 */
int getenv_bool(const char *name);
