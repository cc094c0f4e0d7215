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

#if defined(__x86_64__)

static uint64_t read_counter(void) {
        uint32_t lo, hi;

        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        return ((uint64_t) hi << 32) | lo;
}

/* TSC ticks per second, measured once over a 1 ms stall (as systemd-boot does). */
static uint64_t counter_frequency(void) {
        static uint64_t hz;

        if (!hz) {
                uint64_t start = read_counter();
                BS->Stall(1000);
                hz = (read_counter() - start) * 1000;
                if (!hz)
                        hz = 1;
        }
        return hz;
}

#elif defined(__aarch64__)

/* The generic timer's virtual count, which runs from reset; the firmware states its frequency. */
static uint64_t read_counter(void) {
        uint64_t v;

        __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
        return v;
}

static uint64_t counter_frequency(void) {
        uint64_t hz;

        __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
        return hz ?: 1;
}

#else
#  error "no tick counter for this architecture"
#endif

uint64_t time_usec(void) {
        uint64_t ticks = read_counter(), hz = counter_frequency();

        /* Whole seconds and the rest apart: ticks * 1000000 would overflow after hours at GHz rates. */
        return ticks / hz * 1000000 + ticks % hz * 1000000 / hz;
}

EFI_STATUS set_loader_time(const CHAR16 *name) {
        char text[21];

        fassert(name);

        (void) fformat_uint(time_usec(), text);
        return set_loader_string(name, text);
}
