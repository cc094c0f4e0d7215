/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the SMBIOS walker, device paths, the PE reader and Type #2 entries, all on the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "device-path.h"
#include "fuzz.h"
#include "pe-image.h"
#include "smbios.h"
#include "uki-entry.h"

static int on_string(const char *s, size_t n, void *userdata) {
        const char *name, *body;
        size_t nl, bl;

        if (smbios_entry_split(s, n, &name, &nl, &body, &bl) && (name + nl > s + n || body + bl > s + n))
                abort();
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const uint8_t *section;
        size_t n;
        char *url;
        BlsEntry *e[8];
        int k;

        (void) smbios_oem_strings_foreach(data, size, on_string, NULL);
        if (device_path_find_url(data, size, &url) >= 0)
                free(url);
        if (pe_find_section(data, size, ".linux", false, &section, &n) >= 0 &&
            (section < data || section + n > data + size))
                abort();
        if (pe_find_section(data, size, ".text", true, &section, &n) >= 0 &&
            (section < data || section + n > data + size))
                abort();
        k = uki_entries_make("fuzz+2.efi", "\\EFI\\Linux\\fuzz+2.efi", data, size, false, e, 8);
        for (int i = 0; i < k; i++) {
                if (!e[i]->id || !e[i]->title || !e[i]->path)
                        abort();
                bls_entry_free(e[i]);
        }
        return 0;
}
