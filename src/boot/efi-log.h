/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Messages on the firmware's console, one line each: "PROGRAM: TEXT" or, for an error status,
 * "PROGRAM: TEXT: STATUS" (the firmware's name for it, e.g. "Not Found"). TEXT is formatted as
 * printf() does (src/fundamental/printf-fundamental.h; %s takes UTF-8). Returning the status lets a
 * caller log and fail in one statement:
 *
 *     if (EFI_ERROR(s))
 *             return log_efi(s, "cannot load %s", path);
 */
#pragma once

#include <efi.h>

#include "macro-fundamental.h"

/** The name before every message ("urlboot", the default, or "urlboot-stub"); set once at the start. */
extern const char *log_program;

/** Print the line. @ret s */
EFI_STATUS log_efi(EFI_STATUS s, const char *fmt, ...) _printf_(2, 3);

/** A line of information (log_efi() with EFI_SUCCESS). */
void log_efi_info(const char *fmt, ...) _printf_(1, 2);

/** log_efi(), then a pause of 5 s so the line can be read before the firmware takes the screen back. @ret s */
EFI_STATUS log_efi_fatal(EFI_STATUS s, const char *fmt, ...) _printf_(2, 3);
