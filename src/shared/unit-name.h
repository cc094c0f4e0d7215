/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * systemd unit-name escaping (what "systemd-escape" and "systemd-escape --path" print).
 */
#pragma once

/** Longest unit name systemd accepts, including the suffix. */
#define UNIT_NAME_MAX 255

/**
 * Escape a string for use in a unit name: "/" becomes "-", ASCII letters, digits, ":", "_" and "."
 * stay, everything else (also "-" and "\") becomes "\xNN"; a leading "." is escaped too.
 */
int unit_name_escape(const char *s, char **ret);

/**
 * Escape a path: simplified first, "/" alone becomes "-", leading and trailing slashes dropped.
 * @ret 0, -EINVAL for paths that are not normalized (".." components), -ENOMEM
 */
int unit_name_path_escape(const char *path, char **ret);

/** Undo unit_name_escape(); -EINVAL for malformed escapes. */
int unit_name_unescape(const char *s, char **ret);

/**
 * "PREFIX@ESCAPED-PATH.SUFFIX", e.g. ("urlboot-import", "/run/machines/a.raw", ".service").
 * @ret 0, -EINVAL for a bad path, -ENAMETOOLONG if the name exceeds UNIT_NAME_MAX
 */
int unit_name_from_path_instance(const char *prefix, const char *path, const char *suffix, char **ret);
