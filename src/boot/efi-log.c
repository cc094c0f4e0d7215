/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Messages on the firmware's console.
 */
#include <efi.h>
#include <efilib.h>

#include "efi-log.h"
#include "efi-string.h"
#include "memory-fundamental.h"
#include "string-fundamental.h"

void log_line(const char *text) {
        CHAR16 *t = utf8_to_char16(text, fstrlen(text));

        if (t) {
                Print(L"%s\n", t);
                ffree(t);
        }
}
