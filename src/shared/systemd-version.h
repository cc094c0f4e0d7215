/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The version of the systemd we run beside.
 *
 * From v258 on, systemd owns "systemd.pull=" and "root=bind:"; urlboot then acts only on its
 * own spellings (see docs/ARCHITECTURE.md).
 */
#pragma once

/* The first version whose systemd does what urlboot adds to older ones: from there on the generators act
 * only on urlboot's own spellings and the companions stand aside (docs/companions.md). */
#define SYSTEMD_VERSION_OWNS_PULL 258
#define SYSTEMD_VERSION_OWNS_DIRQUOTA 258       /* StateDirectoryQuota= and friends */
#define SYSTEMD_VERSION_UNIT_SHELL 258          /* systemd-analyze unit-shell */
#define SYSTEMD_VERSION_REFUSES_TYPES 258       /* resolved's RefuseRecordTypes= */

/**
 * The running systemd's major version.
 *
 * $URLBOOT_SYSTEMD_VERSION overrides detection; otherwise "systemd --version" of the manager binary.
 * @ret the version (> 0) or negative errno
 */
int systemd_version(void);

/** Parse the first line of "systemd --version" ("systemd 252 (252.38-1~deb12u1)"). */
int systemd_version_parse(const char *line);
