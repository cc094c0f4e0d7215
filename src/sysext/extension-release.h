/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Whether systemd-sysext 252 merges an extension: its extension-release fields against the host's
 * os-release, by the rules of 252's extension_release_validate() (scope, architecture, ID or "_any",
 * then SYSEXT_LEVEL if both have one, else VERSION_ID unless the host has neither).
 *
 * Fields are "KEY=VALUE" strings, values without quotes.
 */
#pragma once

#include <stddef.h>

typedef struct HostRelease {
        const char *id, *version_id, *sysext_level;
        const char *scope;              /* "system", or "initrd" in the initrd */
        const char *architecture;       /* systemd's name: "x86-64", "arm64", ... */
} HostRelease;

/** The value of KEY in "KEY=VALUE" fields, NULL when absent. */
const char *release_field(char *const *fields, const char *key);

/**
 * The "KEY=VALUE" fields of os-release style text (comments and blank lines skipped, one pair of
 * quotes around a value dropped).
 * @ret 0, -ENOMEM
 */
int release_fields_parse(const char *text, size_t size, char ***ret);

/**
 * Whether the extension's fields match the host.
 * @v ret_reason  why not, a static string (NULL when it matches)
 * @ret 1 merged, 0 not
 */
int extension_release_matches(char *const *fields, const HostRelease *host, const char **ret_reason);

/** systemd's name of the architecture uname(2) reports ("x86-64" for x86_64), NULL if unknown. */
const char *host_architecture(void);
