/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file
 * Credentials and extension images beside the UKI, as systemd-stub picks them up.
 */
#include "assert-fundamental.h"
#include "memory-fundamental.h"
#include "printf-fundamental.h"
#include "string-fundamental.h"
#include "stub-sidecar.h"

#define NAME_MAX_LINUX 255

static const StubSidecar stub_sidecars[] = {
        { NULL, ".cred", NULL, ".extra/credentials", 0500, 0400, TPM2_PCR_KERNEL_CONFIG, "Credentials initrd",
          STUB_SIDECAR_PARAMETERS },
        { "\\loader\\credentials", ".cred", NULL, ".extra/global_credentials", 0500, 0400, TPM2_PCR_KERNEL_CONFIG,
          "Global credentials initrd", STUB_SIDECAR_PARAMETERS },
        { NULL, ".raw", ".confext.raw", ".extra/sysext", 0555, 0444, TPM2_PCR_SYSEXTS, "System extension initrd",
          STUB_SIDECAR_SYSEXTS },
        { "\\loader\\extensions", ".raw", ".confext.raw", ".extra/global_sysext", 0555, 0444, TPM2_PCR_SYSEXTS,
          "Global system extension initrd", STUB_SIDECAR_SYSEXTS },
        { NULL, ".confext.raw", NULL, ".extra/confext", 0555, 0444, TPM2_PCR_KERNEL_CONFIG,
          "Configuration extension initrd", STUB_SIDECAR_CONFEXTS },
        { "\\loader\\extensions", ".confext.raw", NULL, ".extra/global_confext", 0555, 0444, TPM2_PCR_KERNEL_CONFIG,
          "Global configuration extension initrd", STUB_SIDECAR_CONFEXTS },
};

const StubSidecar *stub_sidecar(size_t i) {
        return i < ELEMENTSOF(stub_sidecars) ? &stub_sidecars[i] : NULL;
}

bool stub_sidecar_wants(const StubSidecar *s, const char *name) {
        size_t n = fstrlen(name);

        fassert(s);
        fassert(name);

        if (n == 0 || n > NAME_MAX_LINUX || name[0] == '.')
                return false;
        for (size_t i = 0; i < n; i++)
                if ((unsigned char) name[i] >= 0x80)
                        return false;
        if (!fendswith_no_case(name, s->suffix))
                return false;
        return !(s->exclude_suffix && fendswith_no_case(name, s->exclude_suffix));
}

char *stub_sidecar_extra_dir(const char *uki_path) {
        fassert(uki_path);

        return fasprintf("%s.extra.d", uki_path);
}

int stub_sidecar_pack(const StubSidecar *s, CpioFile *files, size_t n, void **ret_archive, size_t *ret_size,
                      MeasureEvent *ret_event) {
        void *archive;
        size_t size;
        int r;

        fassert(s);
        fassert(files || n == 0);
        fassert(ret_archive);
        fassert(ret_size);
        fassert(ret_event);

        cpio_sort(files, n);
        r = cpio_pack(s->target_dir, s->dir_mode, s->file_mode, files, n, &archive, &size);
        if (r < 0)
                return r;
        *ret_event = (MeasureEvent) {
                .pcr = s->pcr, .type = TCG_EV_IPL, .data = archive, .size = size, .description = s->description,
        };
        *ret_archive = archive;
        *ret_size = size;
        return 0;
}
