/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Showing the menu: console mode, timeout, keys, editing an entry's options.
 */
#pragma once

#include <efi.h>

#include "boot-entry.h"

typedef struct MenuChoice {
        unsigned index;
        bool key_pressed;       /* somebody was at the keyboard */
        char *options;          /* edited options (with 'e'), or NULL to use the entry's */
} MenuChoice;

/** Set the text mode loader.conf's console-mode asks for ("auto" and "max": the largest). */
void console_apply_mode(const LoaderConf *conf);

/** Show the menu as the timeout asks and return the choice. */
MenuChoice menu_run(Menu *m, unsigned selected, uint32_t timeout);
