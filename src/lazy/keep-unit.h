/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The lazy disk's unit, kept for the real root's systemd.
 *
 * urlboot-lazy runs past the switch to the real root when its copy is not complete. In the initrd its unit
 * is written by urlboot-import-generator; after the switch the generators run again and that file is gone,
 * so the real root's systemd would know the running unit only by name, without IgnoreOnIsolate=, and stop it
 * in its first transaction (nbdkit with it: the root would lose its disk). So at attach the unit is written
 * where both systemds look and nothing removes it, /run/systemd/system, with what keeps it running: no
 * default dependencies, IgnoreOnIsolate=yes, RefuseManualStop=yes. The real root needs nothing of urlboot's
 * for it: a stock root works.
 */
#pragma once

#include <stdbool.h>

/** Write /run/systemd/system/UNIT (in dir_fd, that directory) for the lazy disk of url. @ret 0, -EINVAL, <0 */
int lazy_keep_unit_at(int dir_fd, const char *unit, const char *url);

/** Whether unit is a name this can write: NAME.service, no "/", printable. */
bool lazy_keep_unit_name_valid(const char *unit);
