/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Messages on the firmware's console.
 */
#pragma once

/** Print a line on the console (UTF-8 in). */
void log_line(const char *fmt_utf8);
