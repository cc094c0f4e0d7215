/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the SMBIOS walker, device paths and the PE reader, all on the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "device-path.h"
#include "fuzz.h"
#include "pe-image.h"
#include "smbios.h"

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

        (void) smbios_oem_strings_foreach(data, size, on_string, NULL);
        if (device_path_find_url(data, size, &url) >= 0)
                free(url);
        if (pe_find_section(data, size, ".linux", false, &section, &n) >= 0 &&
            (section < data || section + n > data + size))
                abort();
        if (pe_find_section(data, size, ".text", true, &section, &n) >= 0 &&
            (section < data || section + n > data + size))
                abort();
        return 0;
}
