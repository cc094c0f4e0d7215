/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The PCR 12 measurements systemd-stub makes of what does not come from its signed sections, in its
 * order: the profile it boots (unless 0: an EV_EVENT_TAG event over the number in UTF-16, made
 * before the PCR 11 events), the command line it was given (unless Secure Boot drops it: the UKI has its own .cmdline), then the
 * SMBIOS io.systemd.stub.kernel-cmdline-extra= text; each command line as an EV_IPL event over the
 * cleaned-up text in UTF-16 with its NUL, described by itself. The credentials and extension images
 * picked up beside the UKI follow (stub-sidecar.h). Boot managers measure the options they pass the
 * same way (systemd-boot, urlboot's manager): stub_measure_cmdline().
 */
#pragma once

#include "measure-event.h"

typedef struct StubParameters {
        const uint16_t *options;        /* the load options, cleaned up, "@N" taken off; NULL or empty: none */
        size_t options_len;
        const uint16_t *smbios_extra;   /* the SMBIOS text, cleaned up; NULL or empty: none */
        size_t smbios_extra_len;
        bool secure_boot;
        bool uki_has_cmdline;           /* a .cmdline section for this profile */
        bool confidential_vm;           /* SEV, TDX or a Hyper-V isolated VM (systemd-stub's is_confidential_vm()) */
} StubParameters;

/**
 * Whether the stub passes its load options on (and measures them), or drops them: under Secure Boot for
 * the UKI's .cmdline, and in a confidential VM even without one (the host is not trusted to add any).
 */
bool stub_options_used(const StubParameters *p);

/** Whether the SMBIOS io.systemd.stub.kernel-cmdline-extra= text is used (never in a confidential VM). */
bool stub_smbios_extra_used(const StubParameters *p);

/**
 * An EV_IPL PCR 12 event over a command line.
 * @v s  UTF-16 text of n code units, s[n] being its NUL (measured with it)
 */
void stub_measure_cmdline(const uint16_t *s, size_t n, MeasureEvent *ret);

/** Text for the profile event: the number in UTF-16 with its NUL. */
typedef struct StubProfileText {
        uint16_t text[11];
} StubProfileText;

/**
 * The event for the profile, unless it is 0 (then nothing is measured).
 * @v buf  holds the measured text while ret is used
 * @ret whether there is an event
 */
bool stub_measure_profile(unsigned profile, StubProfileText *buf, MeasureEvent *ret);

/**
 * Call cb for the command line events (options, then SMBIOS), in order.
 * @ret 0 or what cb returned
 */
int stub_measure_cmdlines(const StubParameters *p, measure_event_cb cb, void *userdata);
