/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Which of a UKI's .dtbauto sections a machine boots with, as systemd-stub 262 chooses: when the firmware
 * has a devicetree, the first .dtbauto whose root compatible is the firmware's; when it has none, the
 * compatible of the .hwids entry for the machine's CHIDs (hwids_match()), compared the same way. Only
 * the first string of each compatible list counts. The stub installs and measures the one chosen; a UKI's
 * measurement is predicted with the same function (urlbootctl measure).
 */
#pragma once

#include "chid.h"

typedef struct DtbautoInputs {
        const char *firmware_compatible;        /* the firmware devicetree's root compatible, NULL: none */
        bool firmware_devicetree;               /* the firmware has a devicetree (even one without compatible) */
        const void *hwids;                      /* the .hwids section, NULL: none */
        size_t hwids_size;
        const Chid *chids;                      /* CHID_TYPES of them, by type; NULL: none known */
} DtbautoInputs;

typedef struct DtbautoCandidate {
        const void *data;                       /* a .dtbauto section's bytes */
        size_t size;
} DtbautoCandidate;

/**
 * @v ret_compatible   the compatible the choice was made by (NULL: none), into the inputs' bytes
 * @ret the index of the chosen candidate; -ENOENT none matches or nothing to match against; -EBADMSG the
 *      .hwids section is malformed (none is chosen)
 */
int dtbauto_select(const DtbautoInputs *in, const DtbautoCandidate *candidates, size_t n,
                   const char **ret_compatible);
