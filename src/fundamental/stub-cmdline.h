/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * How systemd-stub reads its load options, as UTF-16 code units (what the firmware hands over):
 *
 * - they count only when they look like text: no control character (below 0x20) before the first
 *   NUL (firmware may store binary data there, UEFI allows it);
 * - a leading "@N" followed by one space, or nothing, selects profile N and is taken off;
 * - the rest is cleaned up ("mangled"): leading blanks and control characters dropped, each inner one
 *   turned into a space, trailing ones cut. The same clean-up applies to the UKI's .cmdline and to
 *   the SMBIOS io.systemd.stub.kernel-cmdline-extra= text. What is measured is the cleaned-up text.
 */
#pragma once

#include "macro-fundamental.h"

/** Whether load options (n code units) can be a command line. */
bool stub_options_are_text(const uint16_t *o, size_t n);

/**
 * The "@N" profile selector at the start of o.
 * @ret how many code units it takes (0 when there is none; then *ret_profile is 0)
 */
size_t stub_options_profile(const uint16_t *o, size_t n, unsigned *ret_profile);

/**
 * systemd-stub's clean-up of s[0..n), in place; a NUL ends it early.
 * @ret the new length (the text is not NUL-terminated by this)
 */
size_t stub_cmdline_mangle(uint16_t *s, size_t n);
