/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzz target: what chooses a UKI's .dtbauto, on the same bytes read as a .hwids section, a devicetree
 * blob and an SMBIOS table. The oracles: libfdt (dtc's library) for the root compatible of a blob its
 * header check finds sound, a second reading of each .hwids entry with libc's memchr, and of the SMBIOS
 * strings a CHID is made of with memmem (a structure ends at the first "\0\0" after its formatted part). */
#include <errno.h>
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

#include "chid.h"
#include "devicetree.h"
#include "dtbauto.h"
#include "fuzz.h"
#include "hwids.h"
#include "smbios.h"

static uint32_t le32(const uint8_t *p) {
        return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

/* The string at off as the oracle reads it: NULL for 0, "" standing for "malformed" */
static const char *oracle_string(const uint8_t *data, size_t size, uint32_t off, bool *bad) {
        if (off == 0)
                return NULL;
        if (off >= size || !memchr(data + off, 0, size - off)) {
                *bad = true;
                return NULL;
        }
        return (const char *) data + off;
}

static void check_hwids(const uint8_t *data, size_t size) {
        Chid chids[CHID_TYPES] = {};
        HwidsEntry e;
        size_t i;
        int r;

        for (i = 0;; i++) {
                r = hwids_entry(data, size, i, &e);
                bool end = (i + 1) * HWIDS_ENTRY_SIZE >= size || le32(data + i * HWIDS_ENTRY_SIZE) == 0;
                if (end != (r == -ENOENT))
                        abort();
                if (end)
                        break;
                const uint8_t *p = data + i * HWIDS_ENTRY_SIZE;
                bool bad = (p[3] >> 4) != HWIDS_DEVICETREE && (p[3] >> 4) != HWIDS_UEFI_FW;
                const char *name = oracle_string(data, size, le32(p + 20), &bad),
                           *compatible = oracle_string(data, size, le32(p + 24), &bad);
                if (bad != (r == -EBADMSG))
                        abort();
                if (bad)
                        return;
                if (e.name != name || e.compatible != compatible || memcmp(e.chid.bytes, p + 4, CHID_SIZE) != 0 ||
                    e.type != (unsigned) (p[3] >> 4))
                        abort();
        }
        /* the machine has the first entry's CHID as its type 11: that entry (or one before it) matches */
        if (i > 0 && data[3] >> 4 == HWIDS_DEVICETREE) {
                memcpy(chids[11].bytes, data + 4, CHID_SIZE);
                r = hwids_match(data, size, HWIDS_DEVICETREE, chids, &e);
                if (chid_is_null(&chids[11]) ? r != -ENOENT : r != 0 || memcmp(e.chid.bytes, data + 4, CHID_SIZE) != 0)
                        abort();
        }
}

/* The root compatible as libfdt's tag walker reads it (fdt_check_full() itself crashes on some blobs in
 * Debian 12's libfdt 1.6.1): 1 found, 0 none before the root's first child or end, -1 a blob it finds
 * unsound, which is not compared. */
static int libfdt_root_compatible(const void *fdt, size_t size, const char **ret) {
        int offset = 0, next, len, name_len;
        const char *root_name;
        uint32_t tag;

        /* (systemd-stub, and so urlboot, also want the structure block aligned and in whole words) */
        if (size < FDT_HEADER_SIZE || fdt_check_header(fdt) != 0 || fdt_totalsize(fdt) > size ||
            fdt_off_dt_struct(fdt) % 4 != 0 || fdt_size_dt_struct(fdt) % 4 != 0)
                return -1;
        while ((tag = fdt_next_tag(fdt, offset, &next)) == FDT_NOP)
                offset = next;
        /* the root: an empty name */
        if (tag != FDT_BEGIN_NODE || next < 0 || !(root_name = fdt_offset_ptr(fdt, offset + 4, 1)) || *root_name)
                return -1;
        for (offset = next;; offset = next) {
                tag = fdt_next_tag(fdt, offset, &next);
                if (next < 0)
                        return -1;
                if (tag == FDT_NOP)
                        continue;
                if (tag != FDT_PROP)
                        return tag == FDT_BEGIN_NODE || tag == FDT_END_NODE ? 0 : -1;
                const struct fdt_property *p = fdt_get_property_by_offset(fdt, offset, &len);
                if (!p)
                        return -1;
                const char *name = fdt_get_string(fdt, fdt32_to_cpu(p->nameoff), &name_len);
                if (!name || strcmp(name, "compatible") != 0)
                        continue;
                if (len == 0 || p->data[len - 1] != 0)
                        return -1;
                *ret = p->data;
                return 1;
        }
}

static void check_devicetree(const uint8_t *data, size_t size) {
        const char *ours = NULL, *theirs = NULL;
        DtbautoCandidate c = { data, size };
        int r = fdt_root_compatible(data, size, &ours), o = libfdt_root_compatible(data, size, &theirs);

        if (r == 0 && (ours < (const char *) data || !memchr(ours, 0, size - (size_t) ((const uint8_t *) ours - data))))
                abort();
        /* libfdt found it: the same string; libfdt found none: neither did we (or we refused the blob: its
         * walker steps over lengths past the block that fdt_check_full() would refuse) */
        if ((o == 1 && (r != 0 || strcmp(ours, theirs) != 0)) || (o == 0 && r == 0))
                abort();
        DtbautoMachine m = { .firmware_devicetree = true, .firmware_compatible = r == 0 ? ours : NULL };
        if (dtbauto_select(&m, NULL, 0, &c, 1, NULL) != (r == 0 ? 0 : -ENOENT))
                abort();
}

/* The oracle's reading of smbios_structure_string(): the first structure of the type (before the end
 * marker, type 127); its string set runs to the first "\0\0" after its formatted part and numbers its
 * strings from 1 until the first empty one. */
static int oracle_smbios_string(const uint8_t *p, size_t size, uint8_t type, size_t length_min, size_t field,
                                const char **ret) {
        for (size_t off = 0; off + 4 <= size;) {
                size_t len = p[off + 1], n = 0;
                const uint8_t *strings = p + off + len, *end;

                if (len < 4 || off + len > size)
                        return -EBADMSG;
                end = memmem(strings, size - off - len, "\0\0", 2);
                if (!end)
                        return -EBADMSG;
                if (p[off] == type) {
                        if (len < length_min || field >= len || p[off + field] == 0)
                                return -ENOENT;
                        for (const uint8_t *q = strings; q < end && *q; q += strlen((const char *) q) + 1)
                                if (++n == p[off + field]) {
                                        *ret = (const char *) q;
                                        return 0;
                                }
                        return -ENOENT;
                }
                if (p[off] == 127)
                        return -ENOENT;
                off = end + 2 - p;
        }
        return -ENOENT;
}

static void check_smbios_strings(const uint8_t *data, size_t size) {
        /* the fields CHIDs are made of (type, length of the version that has it, offset), and one the input picks */
        static const uint8_t fields[][3] = {
                { 0, 0x18, 0x04 }, { 0, 0x18, 0x05 }, { 1, 0x1b, 0x04 }, { 1, 0x1b, 0x05 }, { 1, 0x1b, 0x19 },
                { 1, 0x1b, 0x1a }, { 2, 0x08, 0x04 }, { 2, 0x08, 0x05 }, { 3, 0x09, 0x04 },
        };

        for (size_t i = 0; i <= ELEMENTSOF(fields); i++) {
                uint8_t type = i < ELEMENTSOF(fields) ? fields[i][0] : size > 0 ? data[size - 1] : 1;
                size_t min = i < ELEMENTSOF(fields) ? fields[i][1] : 4, field = i < ELEMENTSOF(fields) ? fields[i][2] : 4;
                const char *ours = NULL, *theirs = NULL;
                int r = smbios_structure_string(data, size, type, min, field, &ours);

                if (r != oracle_smbios_string(data, size, type, min, field, &theirs) || ours != theirs)
                        abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *fields[_CHID_FIELD_MAX];
        Chid c;

        check_hwids(data, size);
        check_devicetree(data, size);
        check_smbios_strings(data, size);
        if (chid_fields_from_smbios(data, size, fields) == 0) {
                for (unsigned t = 0; t < CHID_TYPES; t++)
                        if ((chid_compute(t, (const char *const *) fields, &c) == 0) == chid_is_null(&c))
                                abort();
                chid_fields_free(fields);
        }
        return 0;
}
