/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Where the system manager finds service units and their drop-ins, the way systemd 252 looks.
 *
 * The search path is systemd 252's (systemd-analyze unit-paths) without the three generator directories,
 * which other generators fill while ours runs. $URLBOOT_UNIT_PATH (a colon list, highest priority first)
 * replaces it, for tests.
 */
#pragma once

/** The unit search path, highest priority first. */
int unit_search_path(char ***ret);

/**
 * The service names to look at: every "*.service" at the top of a search directory (templates
 * included), and instances that have drop-in directories of their own ("foo@bar.service.d").
 * Sorted, without duplicates.
 */
int unit_names_collect(char *const *search_path, char ***ret);

/**
 * The unit file systemd loads for name: the first directory that has it; for an instance without a file
 * of its own, the template's.
 * @ret 0, -ENOENT when there is none, -ERFKILL when masked (a link to /dev/null or an empty file),
 *      -EXDEV when the name is an alias (a link to a unit of another name)
 */
int unit_fragment_find(char *const *search_path, const char *name, char **ret_path);

/**
 * The drop-ins systemd applies to name, in its order: "*.conf" from NAME.d, the template's
 * "foo@.service.d", the prefixes' "a-b-.service.d", "a-.service.d" and the type's "service.d", in every
 * search directory; a file name met again in a lower-priority directory is hidden; sorted by file name.
 */
int unit_dropins_find(char *const *search_path, const char *name, char ***ret);
