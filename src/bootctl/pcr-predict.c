/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * The events of a boot through the stub, hashed into virtual PCRs.
 */
#include <assert.h>
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "macro.h"
#include "pcr-predict.h"
#include "pe-image.h"
#include "stub-cmdline.h"
#include "stub-measure.h"
#include "stub-sidecar.h"
#include "uki-measure.h"
#include "utf16.h"

void prediction_done(Prediction *p) {
        assert(p);

        for (size_t i = 0; i < p->n_events; i++)
                free(p->events[i].description);
        free(p->events);
        *p = (Prediction) {};
}

static char *event_description(const MeasureEvent *e) {
        char *s = NULL;

        if (e->description)
                return strdup(e->description);
        return utf16le_to_utf8(e->description_utf16, e->description_utf16_size, &s) < 0 ? NULL : s;
}

/* Extends the virtual PCRs with an event and keeps a record of it. */
static int add_event(const MeasureEvent *e, void *userdata) {
        Prediction *p = userdata;
        PredictedEvent *grown, *l;
        int r;

        grown = realloc(p->events, (p->n_events + 1) * sizeof *p->events);
        if (!grown)
                return -ENOMEM;
        p->events = grown;
        l = &p->events[p->n_events];
        *l = (PredictedEvent) { .pcr = e->pcr, .type = e->type, .tag = e->tag, .description = event_description(e) };
        if (!l->description)
                return -ENOMEM;
        p->n_events++;
        for (PcrBank b = 0; b < _PCR_BANK_MAX; b++) {
                r = pcr_event_digest(e, b, l->digest[b]);
                if (r >= 0)
                        r = pcr_extend_digest(&p->pcrs, e->pcr, b, l->digest[b]);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* UTF-8 text as UTF-16 code units with a NUL after them; NULL text gives NULL and 0. */
static int to_utf16(const char *text, uint16_t **ret, size_t *ret_len) {
        void *u = NULL;
        size_t size;

        *ret = NULL;
        *ret_len = 0;
        if (!text)
                return 0;
        if (utf8_to_utf16le(text, strlen(text), &u, &size) < 0)
                return -EINVAL;
        *ret = u;
        *ret_len = size / 2 - 1;
        return 0;
}

static bool same_dir(const char *a, const char *b) {
        return a && b ? strcasecmp(a, b) == 0 : a == b;
}

bool pcr_predict_file_wanted(const char *dir, const char *name) {
        assert(name);

        for (size_t i = 0; stub_sidecar(i); i++)
                if (same_dir(stub_sidecar(i)->global_dir, dir) && stub_sidecar_wants(stub_sidecar(i), name))
                        return true;
        return false;
}

/* One sidecar's archive of the given files it wants, and its event. */
static int measure_sidecar(const PredictInput *in, const StubSidecar *s, Prediction *p) {
        _cleanup_free_ CpioFile *files = calloc(in->n_files + 1, sizeof *files);
        _cleanup_free_ void *archive = NULL;
        size_t n = 0, size;
        MeasureEvent e;
        int r;

        if (!files)
                return -ENOMEM;
        for (size_t i = 0; i < in->n_files; i++)
                if (same_dir(s->global_dir, in->files[i].dir) && stub_sidecar_wants(s, in->files[i].name))
                        files[n++] = (CpioFile) { in->files[i].name, in->files[i].data, in->files[i].size };
        if (n == 0)
                return 0;
        r = stub_sidecar_pack(s, files, n, &archive, &size, &e);
        return r < 0 ? r : add_event(&e, p);
}

/* systemd-pcrphase: each word, without NUL, into PCR 11 (by the booted system, after the stub). */
static int measure_phases(const char *phases, Prediction *p) {
        _cleanup_free_ char *copy = phases ? strdup(phases) : NULL;
        char *save = NULL;
        int r;

        if (!phases)
                return 0;
        if (!copy)
                return -ENOMEM;
        for (char *w = strtok_r(copy, ":", &save); w; w = strtok_r(NULL, ":", &save)) {
                MeasureEvent e = { .pcr = TPM2_PCR_KERNEL_BOOT, .type = TCG_EV_IPL, .data = w, .size = strlen(w),
                                   .description = w };
                r = add_event(&e, p);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* urlboot-sysext-measure: each text, without NUL, into PCR 13 with TPM2_PCR_Event (by the booted system). */
static int measure_sysexts(char *const *texts, Prediction *p) {
        for (char *const *t = texts; t && *t; t++) {
                MeasureEvent e = { .pcr = TPM2_PCR_SYSEXTS, .type = TCG_EV_IPL, .data = *t, .size = strlen(*t),
                                   .description = *t };
                int r = add_event(&e, p);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* What the stub does with its load options: text check, "@N", clean-up. */
static unsigned stub_read_options(uint16_t *options, size_t n, StubParameters *params) {
        unsigned profile = 0;
        size_t skip;

        if (!options || !stub_options_are_text(options, n))
                return 0;
        skip = stub_options_profile(options, n, &profile);
        params->options = options + skip;
        params->options_len = stub_cmdline_mangle(options + skip, n - skip);
        options[skip + params->options_len] = 0;
        return profile;
}

static int predict_stub(const PredictInput *in, uint16_t *options, size_t n_options, Prediction *p) {
        _cleanup_free_ uint16_t *smbios = NULL;
        StubParameters params = { .secure_boot = in->secure_boot, .confidential_vm = in->confidential_vm };
        StubProfileText profile_text;
        PeSectionData dtbauto;
        const uint8_t *cmdline;
        size_t n_smbios, cmdline_size;
        unsigned profile;
        MeasureEvent e;
        int r;

        profile = stub_read_options(options, n_options, &params);
        if (!pe_profile_exists(in->uki, in->uki_size, profile))
                return -ERANGE;
        /* An empty .cmdline (VirtualSize 0) is no .cmdline: the stubs keep the load options then. */
        params.uki_has_cmdline = pe_find_profile_section(in->uki, in->uki_size, profile, ".cmdline", false, &cmdline,
                                                         &cmdline_size) >= 0 && cmdline_size > 0;
        r = to_utf16(in->smbios_extra, &smbios, &n_smbios);
        if (r < 0)
                return r;
        if (smbios) {
                params.smbios_extra = smbios;
                params.smbios_extra_len = stub_cmdline_mangle(smbios, n_smbios);
                smbios[params.smbios_extra_len] = 0;
        }

        /* in the stub's order: profile, sections, command lines, sidecars */
        if (stub_measure_profile(profile, &profile_text, &e)) {
                r = add_event(&e, p);
                if (r < 0)
                        return r;
        }
        /* the .dtbauto this machine gets, if any (a malformed .hwids chooses none, as in the stub) */
        r = in->machine ? uki_dtbauto_select(in->uki, in->uki_size, false, profile, in->machine, &dtbauto, NULL)
                        : -ENOENT;
        r = uki_measure_sections(in->uki, in->uki_size, false, profile, r == 0 ? &dtbauto : NULL, add_event, p);
        if (r >= 0)
                r = stub_measure_cmdlines(&params, add_event, p);
        for (size_t i = 0; r >= 0 && stub_sidecar(i); i++)
                r = measure_sidecar(in, stub_sidecar(i), p);
        return r;
}

int pcr_predict(const PredictInput *in, Prediction *ret) {
        _cleanup_free_ uint16_t *options = NULL;
        _cleanup_free_ char *composed = NULL;
        Prediction p = {};
        size_t n_options;
        MeasureEvent e;
        int r;

        assert(in);
        assert(ret);

        if (in->profile >= 0 && asprintf(&composed, "@%" PRId64 "%s%s", in->profile, in->options ? " " : "",
                                         in->options ?: "") < 0)
                return -ENOMEM;
        r = to_utf16(composed ?: in->options, &options, &n_options);
        if (r < 0)
                return r;
        /* the boot manager measures the options exactly as it passes them */
        if (in->boot_manager && n_options > 0) {
                stub_measure_cmdline(options, n_options, &e);
                r = add_event(&e, &p);
        }
        if (r >= 0 && in->uki)
                r = predict_stub(in, options, n_options, &p);
        if (r >= 0)
                r = measure_phases(in->phases, &p);
        if (r >= 0)
                r = measure_sysexts(in->sysexts, &p);
        if (r < 0) {
                prediction_done(&p);
                return r;
        }
        *ret = p;
        return 0;
}
