/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * libarchive, loaded only when a tarball is unpacked.
 */
#include <stdio.h>

#include "libarchive-dl.h"
#include "macro.h"

#define LIBARCHIVE_DEFINE(name) DLSYM_DEFINE(name);
LIBARCHIVE_SYMBOLS(LIBARCHIVE_DEFINE)

int libarchive_load(const char **ret_error) {
        static const DlSymbol symbols[] = {
#define LIBARCHIVE_ENTRY(name) DLSYM_ENTRY(name),
                LIBARCHIVE_SYMBOLS(LIBARCHIVE_ENTRY)
        };
        static DlOnce once;
        static char message[sizeof once.error + 64];
        const char *error;
        int r;

        r = dlopen_symbols(&once, "libarchive.so.13", symbols, ELEMENTSOF(symbols), &error);
        if (r < 0 && ret_error) {
                /* The one sentence every caller shows (the same text whoever writes it). */
                snprintf(message, sizeof message, "libarchive cannot be loaded (%s); install libarchive13", error);
                *ret_error = message;
        }
        return r;
}
