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
#include "pe-image.h"

/* What the choice depends on of the machine. */
typedef struct DtbautoMachine {
        bool firmware_devicetree;               /* the firmware has a devicetree (even one without compatible) */
        const char *firmware_compatible;        /* its root compatible, NULL: none */
        const Chid *chids;                      /* CHID_TYPES of them, by type; NULL: none known */
} DtbautoMachine;

typedef struct DtbautoCandidate {
        const void *data;                       /* a .dtbauto section's bytes */
        size_t size;
} DtbautoCandidate;

/**
 * Among the candidates, with the .hwids section beside them (NULL: none).
 * @v ret_compatible   the compatible the choice was made by (NULL: none), into the inputs' bytes
 * @ret the index of the chosen candidate; -ENOENT none matches or nothing to match against; -EBADMSG the
 *      .hwids section is malformed (none is chosen)
 */
int dtbauto_select(const DtbautoMachine *m, const void *hwids, size_t hwids_size, const DtbautoCandidate *candidates,
                   size_t n, const char **ret_compatible);

/** A UKI carries at most this many .dtbauto sections in a range that count (the rest are not read). */
#define DTBAUTO_MAX 64

/**
 * The .dtbauto of a UKI this machine boots profile N with, as systemd-stub chooses: among the base's (with
 * the base's .hwids), then among the profile's own (with its own .hwids), a choice there winning.
 * @v loaded   the image as the firmware loaded it, or a file (pe-image.h)
 * @ret 0 with ret, -ENOENT none is chosen, -EBADMSG (a malformed image or .hwids: none is chosen)
 */
int uki_dtbauto_select(const void *image, size_t size, bool loaded, unsigned profile, const DtbautoMachine *m,
                       PeSectionData *ret, const char **ret_compatible);
