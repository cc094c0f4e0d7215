/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "dtbauto.h"
#include "errno-fundamental.h"
#include "devicetree.h"
#include "hwids.h"
#include "string-fundamental.h"

/* The compatible to look for. @ret 0, -ENOENT nothing to look for, -EBADMSG a malformed .hwids */
static int wanted_compatible(const DtbautoMachine *m, const void *hwids, size_t hwids_size, const char **ret) {
        HwidsEntry e;
        int r;

        *ret = NULL;
        if (m->firmware_devicetree) {           /* the firmware's devicetree decides; .hwids is not read */
                *ret = m->firmware_compatible;
                return *ret ? 0 : -ENOENT;
        }
        if (!hwids || !m->chids)
                return -ENOENT;
        r = hwids_match(hwids, hwids_size, HWIDS_DEVICETREE, m->chids, &e);
        if (r < 0)
                return r;
        *ret = e.compatible;
        return *ret ? 0 : -ENOENT;
}

int dtbauto_select(const DtbautoMachine *m, const void *hwids, size_t hwids_size, const DtbautoCandidate *candidates,
                   size_t n, const char **ret_compatible) {
        const char *want, *have;
        int r;

        fassert(m);
        fassert(candidates || n == 0);

        r = wanted_compatible(m, hwids, hwids_size, &want);
        if (ret_compatible)
                *ret_compatible = want;
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++)
                if (fdt_root_compatible(candidates[i].data, candidates[i].size, &have) == 0 && fstreq(have, want))
                        return (int) i;
        return -ENOENT;
}

/* The choice within one range of the section table. @ret as uki_dtbauto_select() */
static int range_select(const void *image, size_t size, bool loaded, unsigned range, const DtbautoMachine *m,
                        PeSectionData *ret, const char **ret_compatible) {
        PeSectionData sections[DTBAUTO_MAX], hwids;
        DtbautoCandidate candidates[DTBAUTO_MAX];
        size_t n, n_hwids;
        int r;

        r = pe_range_sections(image, size, range, ".dtbauto", loaded, sections, DTBAUTO_MAX, &n);
        if (r < 0)
                return r;
        if (n == 0)
                return -ENOENT;
        r = pe_range_sections(image, size, range, ".hwids", loaded, &hwids, 1, &n_hwids);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++)
                candidates[i] = (DtbautoCandidate) { sections[i].data, sections[i].size };
        r = dtbauto_select(m, n_hwids ? hwids.data : NULL, n_hwids ? hwids.size : 0, candidates, n, ret_compatible);
        if (r < 0)
                return r;
        *ret = sections[r];
        return 0;
}

int uki_dtbauto_select(const void *image, size_t size, bool loaded, unsigned profile, const DtbautoMachine *m,
                       PeSectionData *ret, const char **ret_compatible) {
        int base, own = -ENOENT;

        fassert(m);
        fassert(ret);

        base = range_select(image, size, loaded, PE_PROFILE_BASE, m, ret, ret_compatible);
        if (profile != PE_PROFILE_BASE)
                own = range_select(image, size, loaded, profile, m, ret, ret_compatible);
        return own == 0 ? 0 : base;
}
