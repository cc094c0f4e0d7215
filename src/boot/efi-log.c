/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Messages on the firmware's console.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-log.h"
#include "efi-string.h"
#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "string-fundamental.h"

#define FATAL_PAUSE_USEC (5 * 1000 * 1000)

const char *log_program = "urlboot";

static EFI_STATUS log_vline(EFI_STATUS s, const char *fmt, va_list ap) {
        char text[512];
        _cleanup_ffree_ CHAR16 *line = NULL;
        size_t n;

        n = fvsnprintf(text, sizeof text, fmt, ap);
        /* a message cut inside a UTF-8 sequence would not convert: cut it at a character */
        if (n >= sizeof text)
                for (n = sizeof text - 1; n > 0 && (text[n] & 0xc0) == 0x80; n--)
                        text[n] = 0;
        line = utf8_to_char16(text, fstrlen(text));
        if (EFI_ERROR(s))
                Print(L"%a: %s: %r\n", log_program, line ?: L"(message not UTF-8)", s);
        else
                Print(L"%a: %s\n", log_program, line ?: L"(message not UTF-8)");
        return s;
}

EFI_STATUS log_efi(EFI_STATUS s, const char *fmt, ...) {
        va_list ap;

        fassert(fmt);

        va_start(ap, fmt);
        s = log_vline(s, fmt, ap);
        va_end(ap);
        return s;
}

void log_efi_info(const char *fmt, ...) {
        va_list ap;

        fassert(fmt);

        va_start(ap, fmt);
        (void) log_vline(EFI_SUCCESS, fmt, ap);
        va_end(ap);
}

EFI_STATUS log_efi_fatal(EFI_STATUS s, const char *fmt, ...) {
        va_list ap;

        fassert(fmt);

        va_start(ap, fmt);
        s = log_vline(s, fmt, ap);
        va_end(ap);
        BS->Stall(FATAL_PAUSE_USEC);
        return s;
}
