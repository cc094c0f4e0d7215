/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * PCR 11: the sections of a UKI.
 */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "pe-image.h"
#include "string-fundamental.h"
#include "uki-measure.h"

/* The section names of the UKI specification in its order (systemd 262's list). Not exported: data
 * shared between objects would need a global offset table in the UEFI build. */
static const char *const uki_sections[] = {
        ".linux", ".osrel", ".cmdline", ".initrd", ".ucode", ".splash", ".dtb", ".uname", ".sbat", ".pcrsig",
        ".pcrpkey", ".profile", ".dtbauto", ".hwids", ".efifw", NULL,
};

bool uki_section_measured(const char *name) {
        fassert(name);

        /* .dtbauto counts only once one is chosen, by the firmware's devicetree or a .hwids match (dtbauto.h,
         * systemd-stub 262's pe.c): uki_measure_sections() measures the one chosen at its place. .efifw
         * is never chosen (urlboot's stub installs no firmware; 262 does not pick one by its .hwids
         * either). */
        if (fstreq(name, ".pcrsig") || fstreq(name, ".dtbauto") || fstreq(name, ".efifw"))
                return false;
        for (size_t i = 0; uki_sections[i]; i++)
                if (fstreq(uki_sections[i], name))
                        return true;
        return false;
}

/* The two events of one section: its name (with the NUL), then its data. */
static int measure_section(const char *name, const PeSectionData *d, measure_event_cb cb, void *userdata) {
        MeasureEvent name_event = {
                .pcr = TPM2_PCR_KERNEL_BOOT, .type = TCG_EV_IPL, .data = name, .size = fstrlen(name) + 1,
                .description = name,
        };
        MeasureEvent data_event = {
                .pcr = TPM2_PCR_KERNEL_BOOT, .type = TCG_EV_IPL, .data = d->data, .size = d->size,
                .zeros = d->memory_size > d->size ? d->memory_size - d->size : 0, .description = name,
        };
        int r = cb(&name_event, userdata);

        return r != 0 ? r : cb(&data_event, userdata);
}

int uki_measure_sections(const void *image, size_t size, bool loaded, unsigned profile, const PeSectionData *dtbauto,
                         measure_event_cb cb, void *userdata) {
        PeHeaders h;
        int r;

        fassert(image || size == 0);

        r = pe_parse_headers(image, size, &h);
        if (r < 0)
                return r;
        if (!pe_profile_exists(image, size, profile))
                return -ERANGE;
        for (size_t i = 0; uki_sections[i]; i++) {
                PeSectionData d;

                if (dtbauto && dtbauto->memory_size > 0 && fstreq(uki_sections[i], ".dtbauto")) {
                        r = measure_section(".dtbauto", dtbauto, cb, userdata);
                        if (r != 0)
                                return r;
                        continue;
                }
                if (!uki_section_measured(uki_sections[i]))
                        continue;
                r = pe_find_profile_section_data(image, size, profile, uki_sections[i], loaded, &d);
                if (r == -ENOENT)
                        continue;
                if (r < 0)
                        return r;
                /* the stub skips empty sections, as systemd-measure skips empty files */
                if (d.memory_size == 0)
                        continue;
                r = measure_section(uki_sections[i], &d, cb, userdata);
                if (r != 0)
                        return r;
        }
        return 0;
}
