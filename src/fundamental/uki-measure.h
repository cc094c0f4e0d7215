/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * What systemd-stub measures of a UKI into PCR 11: for every section the UKI specification (UAPI.5)
 * lists, in its order, that the image has and that is not empty, an EV_IPL event over the section's
 * name with its NUL byte, then one over the section's data, both described by the name. A
 * multi-profile UKI measures the sections of the profile it boots: its own where it has them, the
 * base's otherwise (pe-image.h), so one pass over the list covers both. The data is what the
 * firmware loaded: VirtualSize bytes, zeros beyond the file's raw data.
 */
#pragma once

#include "measure-event.h"
#include "pe-image.h"

/** Whether systemd-stub measures the section: all of them but .pcrsig, which signs the result. */
bool uki_section_measured(const char *name);

/**
 * Call cb for each PCR 11 event, in order.
 * @v loaded   true: the image as the firmware loaded it (the stub); false: a file (urlbootctl measure)
 * @v dtbauto  the .dtbauto chosen for this machine (dtbauto.h), measured at its place; NULL: none is
 * @ret 0, -ERANGE (no such profile), -EBADMSG (not a PE image, or a section outside it), or what cb
 *      returned
 */
int uki_measure_sections(const void *image, size_t size, bool loaded, unsigned profile, const PeSectionData *dtbauto,
                         measure_event_cb cb, void *userdata);
