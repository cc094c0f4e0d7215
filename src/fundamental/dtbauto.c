/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "dtbauto.h"
#include "errno-fundamental.h"
#include "devicetree.h"
#include "hwids.h"
#include "string-fundamental.h"

/* The compatible to look for. @ret 0, -ENOENT nothing to look for, -EBADMSG a malformed .hwids */
static int wanted_compatible(const DtbautoInputs *in, const char **ret) {
        HwidsEntry e;
        int r;

        *ret = NULL;
        if (in->firmware_devicetree) {          /* the firmware's devicetree decides; .hwids is not read */
                *ret = in->firmware_compatible;
                return *ret ? 0 : -ENOENT;
        }
        if (!in->hwids || !in->chids)
                return -ENOENT;
        r = hwids_match(in->hwids, in->hwids_size, HWIDS_DEVICETREE, in->chids, &e);
        if (r < 0)
                return r;
        *ret = e.compatible;
        return *ret ? 0 : -ENOENT;
}

int dtbauto_select(const DtbautoInputs *in, const DtbautoCandidate *candidates, size_t n,
                   const char **ret_compatible) {
        const char *want, *have;
        int r;

        fassert(in);
        fassert(candidates || n == 0);

        r = wanted_compatible(in, &want);
        if (ret_compatible)
                *ret_compatible = want;
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++)
                if (fdt_root_compatible(candidates[i].data, candidates[i].size, &have) == 0 && fstreq(have, want))
                        return (int) i;
        return -ENOENT;
}
