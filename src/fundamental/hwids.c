/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "errno-fundamental.h"
#include "hwids.h"
#include "pe-image.h"
#include "string-fundamental.h"

/* The CHID types a .hwids entry is matched with, the most specific first (systemd-stub's order; types 0-2
 * and 12-14 are too broad or name BIOS versions that change with updates). */
static const unsigned match_order[] = { 17, 16, 15, 3, 6, 8, 10, 4, 5, 7, 9, 11 };

/* The string at offset off of the section, NULL for 0. @ret 0, -EBADMSG */
static int section_string(const uint8_t *section, size_t size, uint32_t off, const char **ret) {
        if (off == 0) {
                *ret = NULL;
                return 0;
        }
        if (off >= size || fstrnlen((const char *) section + off, size - off) == size - off)
                return -EBADMSG;
        *ret = (const char *) section + off;
        return 0;
}

int hwids_entry(const void *section, size_t size, size_t i, HwidsEntry *ret) {
        const uint8_t *s = section;

        fassert(section || size == 0);
        fassert(ret);

        for (size_t k = 0; k <= i; k++) {
                /* room for the entry and, after it, at least the terminator's first bytes */
                if ((k + 1) * HWIDS_ENTRY_SIZE >= size || pe_le32(s + k * HWIDS_ENTRY_SIZE) == 0)
                        return -ENOENT;
        }
        const uint8_t *e = s + i * HWIDS_ENTRY_SIZE;
        uint32_t descriptor = pe_le32(e);
        HwidsEntry entry = { .type = descriptor >> 28 };

        if (entry.type != HWIDS_DEVICETREE && entry.type != HWIDS_UEFI_FW)
                return -EBADMSG;
        fmemcpy(entry.chid.bytes, e + 4, CHID_SIZE);
        if (section_string(s, size, pe_le32(e + 20), &entry.name) < 0 ||
            section_string(s, size, pe_le32(e + 24), &entry.compatible) < 0)
                return -EBADMSG;
        *ret = entry;
        return 0;
}

/* Every entry well-formed (systemd-stub refuses the whole section for one bad entry). @ret 0, -EBADMSG */
static int hwids_check(const void *section, size_t size) {
        HwidsEntry e;
        int r;

        for (size_t i = 0; (r = hwids_entry(section, size, i, &e)) == 0; i++)
                ;
        return r == -ENOENT ? 0 : r;
}

int hwids_match(const void *section, size_t size, unsigned type, const Chid chids[static CHID_TYPES],
                HwidsEntry *ret) {
        HwidsEntry e;
        int r;

        fassert(chids);
        fassert(ret);

        r = hwids_check(section, size);
        if (r < 0)
                return r;
        for (size_t t = 0; t < ELEMENTSOF(match_order); t++) {
                const Chid *want = &chids[match_order[t]];

                if (chid_is_null(want))
                        continue;
                for (size_t i = 0; hwids_entry(section, size, i, &e) == 0; i++)
                        if (e.type == type && fmemcmp(e.chid.bytes, want->bytes, CHID_SIZE) == 0) {
                                *ret = e;
                                return 0;
                        }
        }
        return -ENOENT;
}
