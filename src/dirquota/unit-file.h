/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Reading systemd unit files (and drop-ins) into assignments, with systemd's own line rules: "#" and ";"
 * comment lines (also inside a continued line), a trailing backslash continues the line (it becomes a
 * space), whitespace around keys and values is dropped, "[Section]" headers, a UTF-8 BOM is skipped.
 * Lines systemd ignores with a warning (no "=", no key, invalid UTF-8, outside a section) are skipped.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/** Longest logical line systemd reads (LONG_LINE_MAX). */
#define UNIT_FILE_LINE_MAX (1024U * 1024U)

/**
 * Called for each assignment in file order.
 * @v line  the number of the line the assignment starts on
 * @ret 0 to go on, negative errno to stop with it
 */
typedef int (*unit_file_assignment_t)(const char *section, const char *key, const char *value,
                                      unsigned line, void *userdata);

/**
 * Parse unit file text.
 * @ret 0, -EBADMSG for a malformed section header or an over-long line (systemd refuses the whole file),
 *      or what the callback returned
 */
int unit_file_parse_text(const char *text, size_t size, unit_file_assignment_t cb, void *userdata);

/**
 * Whether a line ending like s would continue on the next one (an odd number of trailing backslashes).
 * A value read back can end so ("A=x\\ " gives "x\\"); whoever writes it into a unit file again must
 * add a space after it, or systemd joins the next line to it.
 */
bool unit_file_line_continues(const char *s);

/** The same for a file (at most 16 MiB). */
int unit_file_parse(const char *path, unit_file_assignment_t cb, void *userdata);
