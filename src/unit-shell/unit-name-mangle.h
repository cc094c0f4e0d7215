/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Turning what a user typed into a unit name, as systemctl and systemd-analyze do ("foo" is
 * "foo.service", "/dev/sda" is "dev-sda.device", "a b" is "a\x20b.service").
 */
#pragma once

#include <stdbool.h>

/** What unit_name_mangle() had to do; the caller says so to the user. */
enum {
        /** Characters were escaped: "Invalid unit name ... escaped as ...". */
        UNIT_NAME_MANGLED_ESCAPED = 1 << 0,
        /** The name was a glob pattern, which this command does not take. */
        UNIT_NAME_MANGLED_GLOB = 1 << 1,
        /** The suffix was appended (systemd's escape message shows the name without it). */
        UNIT_NAME_MANGLED_SUFFIXED = 1 << 2,
};

/** True if name is a complete unit name: PREFIX[@[INSTANCE]].TYPE with a known TYPE, below 256 bytes. */
bool unit_name_is_valid(const char *name);

/** True if suffix is "." followed by a known unit type (".service", ".mount", ...). */
bool unit_suffix_is_valid(const char *suffix);

/**
 * Mangle a name given on a command line into a unit name.
 *
 * A valid unit name is kept; a path below /dev/ or /sys/ becomes a .device unit, another absolute
 * path a .mount unit; otherwise characters unit names cannot hold are escaped ("/" becomes "-") and
 * suffix is appended when the result has no unit type.
 *
 * @v name    what the user typed
 * @v suffix  the type to add, e.g. ".service"
 * @ret ret   the unit name (allocated)
 * @ret       a mask of UNIT_NAME_MANGLED_* (0 when nothing needs saying), -EINVAL when no valid
 *            name comes out (empty, too long), -ENOMEM
 */
int unit_name_mangle(const char *name, const char *suffix, char **ret);
