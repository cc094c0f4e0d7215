/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: the SMBIOS entry point and walker, device paths (URL, partition UUID), the PE reader and
 * Type #2 entries, all on the same bytes. */
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

/* "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX", uppercase hex: anything else is a formatting bug. */
static void check_uuid(const char *u) {
        for (size_t i = 0; i < 36; i++)
                if ((i == 8 || i == 13 || i == 18 || i == 23) ? u[i] != '-' : !strchr("0123456789ABCDEF", u[i]) || !u[i])
                        abort();
        if (u[36])
                abort();
}

/* The entry point's fields are copied, never invented: the address must be made of its bytes. */
static void check_entry_point(const uint8_t *data, size_t size) {
        uint64_t address;
        size_t table_size;

        if (smbios_table_from_entry_point(data, size, &address, &table_size) < 0)
                return;
        if (size < 0x18 || data[0] != '_' || (data[3] == '3' ? data[6] > size : data[5] > size))
                abort();
        if (data[3] == '3' ? memcmp(&address, data + 0x10, 8) != 0 : address != (uint64_t) (data[0x18] | data[0x19] << 8 |
                                                                                              data[0x1a] << 16 | (uint64_t) data[0x1b] << 24))
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const uint8_t *section;
        size_t n;
        char *url, *uuid;
        BlsEntry *e[8];
        int k;

        (void) smbios_oem_strings_foreach(data, size, on_string, NULL);
        check_entry_point(data, size);
        if (device_path_find_url(data, size, &url) >= 0) {
                if (!*url || strlen(url) > size)
                        abort();
                free(url);
        }
        if (device_path_find_partition_uuid(data, size, &uuid) >= 0) {
                check_uuid(uuid);
                free(uuid);
        }
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
