/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Time since the CPU started counting, for LoaderTime*USec.
 */
#include <efi.h>
#include <efilib.h>

#include "assert-fundamental.h"
#include "efi-ticks.h"
#include "efi-variables.h"
#include "string-fundamental.h"

static uint64_t read_tsc(void) {
        uint32_t lo, hi;

        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        return ((uint64_t) hi << 32) | lo;
}

/* TSC ticks per microsecond, measured once over a 1 ms stall (as systemd-boot does). */
static uint64_t tsc_per_usec(void) {
        static uint64_t per_usec;

        if (!per_usec) {
                uint64_t start = read_tsc();
                BS->Stall(1000);
                per_usec = (read_tsc() - start) / 1000;
                if (!per_usec)
                        per_usec = 1;
        }
        return per_usec;
}

uint64_t time_usec(void) {
        return read_tsc() / tsc_per_usec();
}

EFI_STATUS set_loader_time(const CHAR16 *name) {
        char text[21];

        fassert(name);

        (void) fformat_uint(time_usec(), text);
        return set_loader_string(name, text);
}
