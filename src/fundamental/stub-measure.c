/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * PCR 12: the profile and the command lines systemd-stub did not find in its signed sections.
 */
#include "assert-fundamental.h"
#include "stub-measure.h"

bool stub_options_used(const StubParameters *p) {
        fassert(p);

        if (!p->options || p->options_len == 0)
                return false;
        /* under Secure Boot a UKI's own command line wins over an unsigned one; in a confidential VM the
         * host gave the unsigned one, and its own (if any) is all there is */
        return !(p->secure_boot && (p->uki_has_cmdline || p->confidential_vm));
}

bool stub_smbios_extra_used(const StubParameters *p) {
        fassert(p);

        return p->smbios_extra && p->smbios_extra_len > 0 && !p->confidential_vm;
}

void stub_measure_cmdline(const uint16_t *s, size_t n, MeasureEvent *ret) {
        size_t bytes = (n + 1) * sizeof(uint16_t);

        fassert(s || n == 0);
        fassert(ret);

        *ret = (MeasureEvent) {
                .pcr = TPM2_PCR_KERNEL_CONFIG, .type = TCG_EV_IPL, .data = s, .size = bytes,
                .description_utf16 = s, .description_utf16_size = bytes,
        };
}

/* The profile number in UTF-16 with its NUL, into buf (at least 11 code units). @ret code units, NUL included */
static size_t profile_text(unsigned profile, uint16_t *buf) {
        uint16_t digits[10];
        size_t n = 0, k = 0;

        do
                digits[n++] = (uint16_t) ('0' + profile % 10);
        while ((profile /= 10));
        while (n > 0)
                buf[k++] = digits[--n];
        buf[k++] = 0;
        return k;
}

bool stub_measure_profile(unsigned profile, StubProfileText *buf, MeasureEvent *ret) {
        size_t bytes;

        fassert(buf);
        fassert(ret);

        if (profile == 0)
                return false;
        bytes = profile_text(profile, buf->text) * sizeof(uint16_t);
        *ret = (MeasureEvent) {
                .pcr = TPM2_PCR_KERNEL_CONFIG, .type = TCG_EV_EVENT_TAG, .tag = TCG_TAG_UKI_PROFILE,
                .data = buf->text, .size = bytes, .description_utf16 = buf->text, .description_utf16_size = bytes,
        };
        return true;
}

int stub_measure_cmdlines(const StubParameters *p, measure_event_cb cb, void *userdata) {
        MeasureEvent e;
        int r;

        fassert(p);

        if (stub_options_used(p)) {
                stub_measure_cmdline(p->options, p->options_len, &e);
                r = cb(&e, userdata);
                if (r != 0)
                        return r;
        }
        if (stub_smbios_extra_used(p)) {
                stub_measure_cmdline(p->smbios_extra, p->smbios_extra_len, &e);
                r = cb(&e, userdata);
                if (r != 0)
                        return r;
        }
        return 0;
}
