/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * A pager for long output on a terminal, as systemd's tools have one: $SYSTEMD_PAGER, else $PAGER, else
 * less (with LESS=FRXMK unless set: it quits when the text fits the screen) or more; none when stdout is
 * no terminal, with --no-pager, or when the variable is empty or "cat"; under sudo or pkexec only less in its
 * secure mode (SYSTEMD_PAGERSECURE=, as systemd's). And colour on a terminal, unless
 * NO_COLOR is set, SYSTEMD_COLORS says no, or TERM is dumb.
 */
#pragma once

#include <stdbool.h>

/** Send stdout through the pager from now on (when there should be one). */
void pager_open(bool no_pager);

/** Let the pager show the rest and wait for it. */
void pager_close(void);

/** Whether stdout should get colour (ANSI sequences). */
bool colors_enabled(void);

#define ANSI_GREEN "\033[0;32m"
#define ANSI_RED "\033[0;31m"
#define ANSI_NORMAL "\033[0m"
