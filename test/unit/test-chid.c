/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for choosing a UKI's .dtbauto: CHIDs against test/data/chid-cases.tsv (computed by chid-cases.py
 * with Python's hashlib and uuid; SHA-1 itself: test-measure), the SMBIOS fields the stub hashes, .hwids
 * sections, devicetree root compatibles (blobs made by dtc) and the choice itself. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "chid.h"
#include "dtbauto.h"
#include "devicetree.h"
#include "fileio.h"
#include "hwids.h"
#include "tests.h"

static void chid_case(char *line, int lineno, void *userdata) {
        char *f[_CHID_FIELD_MAX + CHID_TYPES], *fields[_CHID_FIELD_MAX], got[37];
        int *n = userdata;

        ASSERT_EQ(test_split_fields(line, f, ELEMENTSOF(f)), ELEMENTSOF(f));
        for (size_t i = 0; i < _CHID_FIELD_MAX; i++)
                fields[i] = strcmp(f[i], "-") == 0 ? NULL : strcmp(f[i], "\\e") == 0 ? "" : f[i];
        for (unsigned t = 0; t < CHID_TYPES; t++) {
                const char *want = f[_CHID_FIELD_MAX + t];
                Chid c, back;
                int r = chid_compute(t, (const char *const *) fields, &c);

                chid_to_string(&c, got);
                if ((r == -ENOENT) != (strcmp(want, "-") == 0) || (r == 0 && strcmp(got, want) != 0))
                        test_fail(__FILE__, __LINE__, "line %d, type %u: got %s (%d), want %s", lineno, t, got, r, want);
                if (r == 0) {
                        ASSERT_OK(chid_from_string(want, &back));
                        ASSERT_TRUE(memcmp(back.bytes, c.bytes, CHID_SIZE) == 0);
                } else
                        ASSERT_TRUE(chid_is_null(&c));
        }
        (*n)++;
}

TEST(chids_against_python) {
        int n = 0;

        test_foreach_line("chid-cases.tsv", chid_case, &n);
        test_note("%d machines, %d CHIDs each", n, CHID_TYPES);
        ASSERT_TRUE(n >= 4);
}

TEST(chid_strings) {
        Chid c;
        char s[37];

        /* EFI GUID order: the first three fields little-endian */
        ASSERT_OK(chid_from_string("01E09B32-de05-56ca-b9d1-9486ad5f381d", &c));
        ASSERT_EQ(c.bytes[0], 0x32);
        ASSERT_EQ(c.bytes[3], 0x01);
        ASSERT_EQ(c.bytes[4], 0x05);
        ASSERT_EQ(c.bytes[8], 0xb9);
        chid_to_string(&c, s);
        ASSERT_STREQ(s, "01e09b32-de05-56ca-b9d1-9486ad5f381d");
        ASSERT_EQ(chid_from_string("01e09b32de05-56ca-b9d1-9486ad5f381d", &c), -EINVAL);
        ASSERT_EQ(chid_from_string("01e09b32-de05-56ca-b9d1-9486ad5f381", &c), -EINVAL);
        ASSERT_EQ(chid_from_string("01e09b32-de05-56ca-b9d1-9486ad5f381d0", &c), -EINVAL);
        ASSERT_EQ(chid_from_string("01e09b32-de05-56ca-b9d1-9486ad5f381g", &c), -EINVAL);
        ASSERT_EQ(chid_compute(CHID_TYPES, (const char *[_CHID_FIELD_MAX]) {}, &c), -EINVAL);
        /* not UTF-8: no CHID, as for a field the machine has not */
        ASSERT_EQ(chid_compute(14, (const char *[_CHID_FIELD_MAX]) { "\xff" }, &c), -ENOENT);
}

TEST(smbios_fields_as_the_stub_hashes_them) {
        /* type 1 (27 bytes: manufacturer 1, product 2, SKU 3, family 4), type 2 (8 bytes: manufacturer 1,
         * product 2), a second type 1 that does not count, the end */
        static const uint8_t table[] = {
                1, 0x1b, 0, 0, 1, 2, 0, 0, [8 ... 0x18] = 0, 3, 4,
                ' ', ' ', '0', '0', 'A', 'c', 'm', 'e', ' ', 0, 'B', 'o', 'x', ' ', '0', '7', 0, '0', '0', '0', 0,
                'F', 'a', 'm', 0, 0,
                2, 8, 0, 0, 1, 0, 0, 0, 'B', 'o', 'a', 'r', 'd', 0, 0,
                1, 0x1b, 0, 0, 1, 1, 0, 0, [0x5a ... 0x6c] = 0, 1, 1, 'X', 0, 0,
                127, 4, 0, 0, 0, 0,
        };
        char *f[_CHID_FIELD_MAX];

        ASSERT_OK(chid_fields_from_smbios(table, sizeof table, f));
        ASSERT_STREQ(f[CHID_MANUFACTURER], "Acme");     /* leading spaces and zeros, trailing spaces off */
        ASSERT_STREQ(f[CHID_PRODUCT_NAME], "Box 07");
        ASSERT_STREQ(f[CHID_PRODUCT_SKU], "");          /* all zeros */
        ASSERT_STREQ(f[CHID_FAMILY], "Fam");
        ASSERT_STREQ(f[CHID_BASEBOARD_MANUFACTURER], "Board");
        ASSERT_STREQ(f[CHID_BASEBOARD_PRODUCT], "");    /* string 0: none */
        ASSERT_TRUE(!f[CHID_BIOS_VENDOR] && !f[CHID_EDID_PANEL]);
        chid_fields_free(f);
        /* a type 1 too short for SKU and family (SMBIOS 2.0): none of its strings count */
        uint8_t short1[] = { 1, 8, 0, 0, 1, 0, 0, 0, 'A', 0, 0, 127, 4, 0, 0, 0, 0 };
        ASSERT_OK(chid_fields_from_smbios(short1, sizeof short1, f));
        ASSERT_STREQ(f[CHID_MANUFACTURER], "");
        chid_fields_free(f);
        /* a table cut inside a string: what comes before it still counts, nothing is read past the end */
        ASSERT_OK(chid_fields_from_smbios(table, 40, f));
        ASSERT_STREQ(f[CHID_MANUFACTURER], "");
        chid_fields_free(f);
}

/* A .hwids section: entries (type, CHID text, name, compatible), then the strings. */
typedef struct { unsigned type; const char *chid, *name, *compatible; } Entry;

static size_t make_hwids(uint8_t *buf, size_t max, const Entry *e, size_t n) {
        size_t strings = (n + 1) * HWIDS_ENTRY_SIZE, end = strings;

        memset(buf, 0, max);
        for (size_t i = 0; i < n; i++) {
                uint8_t *p = buf + i * HWIDS_ENTRY_SIZE;
                uint32_t d = e[i].type << 28 | HWIDS_ENTRY_SIZE, name = (uint32_t) end;
                Chid c;

                ASSERT_OK(chid_from_string(e[i].chid, &c));
                memcpy(p, &d, 4);
                memcpy(p + 4, c.bytes, CHID_SIZE);
                strcpy((char *) buf + end, e[i].name);
                end += strlen(e[i].name) + 1;
                uint32_t compatible = e[i].compatible ? (uint32_t) end : 0;
                if (e[i].compatible) {
                        strcpy((char *) buf + end, e[i].compatible);
                        end += strlen(e[i].compatible) + 1;
                }
                memcpy(p + 20, &name, 4);
                memcpy(p + 24, &compatible, 4);
        }
        ASSERT_TRUE(end <= max);
        return end;
}

#define CHID_A "c4fddaee-8e0c-53ec-8e93-8bcc02d09071"
#define CHID_B "e3f2611c-989a-5274-8acb-e5c30c71aff3"

TEST(hwids_sections) {
        static const Entry entries[] = {
                { HWIDS_UEFI_FW, CHID_A, "firmware", "fw-1" },
                { HWIDS_DEVICETREE, CHID_B, "board by family", "urlboot,family" },
                { HWIDS_DEVICETREE, CHID_A, "board by product", "urlboot,board-1" },
        };
        uint8_t buf[512];
        Chid chids[CHID_TYPES] = {};
        HwidsEntry e;
        size_t n = make_hwids(buf, sizeof buf, entries, 3);

        ASSERT_OK(hwids_entry(buf, n, 2, &e));
        ASSERT_STREQ(e.name, "board by product");
        ASSERT_EQ(hwids_entry(buf, n, 3, &e), -ENOENT);
        /* the machine's type 5 CHID is A, its type 11 B: type 5 is more specific, and the firmware entry
         * with A is of another kind */
        ASSERT_OK(chid_from_string(CHID_A, &chids[5]));
        ASSERT_OK(chid_from_string(CHID_B, &chids[11]));
        ASSERT_OK(hwids_match(buf, n, HWIDS_DEVICETREE, chids, &e));
        ASSERT_STREQ(e.compatible, "urlboot,board-1");
        ASSERT_OK(hwids_match(buf, n, HWIDS_UEFI_FW, chids, &e));
        ASSERT_STREQ(e.compatible, "fw-1");
        chids[5] = (Chid) {};
        ASSERT_OK(hwids_match(buf, n, HWIDS_DEVICETREE, chids, &e));
        ASSERT_STREQ(e.compatible, "urlboot,family");
        /* types 0-2, 12-14 are never matched; a machine without CHIDs matches nothing, not the zero CHID */
        chids[11] = (Chid) {};
        ASSERT_OK(chid_from_string(CHID_B, &chids[14]));
        ASSERT_EQ(hwids_match(buf, n, HWIDS_DEVICETREE, chids, &e), -ENOENT);
        /* malformed: an unknown type anywhere, an offset past the end, a string without its NUL */
        uint8_t bad[512];
        memcpy(bad, buf, n);
        bad[2 * HWIDS_ENTRY_SIZE + 3] = 0x30;
        ASSERT_EQ(hwids_match(bad, n, HWIDS_DEVICETREE, chids, &e), -EBADMSG);
        memcpy(bad, buf, n);
        memcpy(bad + 20, &(uint32_t) { (uint32_t) n }, 4);
        ASSERT_EQ(hwids_entry(bad, n, 0, &e), -EBADMSG);
        ASSERT_EQ(hwids_entry(buf, n - 1, 2, &e), -EBADMSG);   /* the last string cut before its NUL */
        /* cut before the terminator: the entries that fit count */
        ASSERT_EQ(hwids_entry(buf, 3 * HWIDS_ENTRY_SIZE, 2, &e), -ENOENT);
        ASSERT_EQ(hwids_entry(buf, 0, 0, &e), -ENOENT);
}

/* A devicetree blob made by dtc from source text, or NULL when dtc is missing. */
static uint8_t *dtb(const char *source, size_t *ret_size) {
        char dts[PATH_MAX], out[PATH_MAX], cmd[3 * PATH_MAX];
        uint8_t *data = NULL;
        FILE *f;

        snprintf(dts, sizeof dts, "%s/t.dts", test_tmpdir());
        snprintf(out, sizeof out, "%s/t.dtb", test_tmpdir());
        ASSERT_TRUE((f = fopen(dts, "w")) && fputs(source, f) >= 0 && fclose(f) == 0);
        snprintf(cmd, sizeof cmd, "dtc -q -I dts -O dtb -o %s %s", out, dts);
        if (system(cmd) != 0)
                return NULL;
        ASSERT_OK(read_full_file(out, 1 << 20, (char **) &data, ret_size));
        return data;
}

TEST(devicetree_root_compatible) {
        size_t n;
        const char *c;
        uint8_t *b = dtb("/dts-v1/;\n/ { model = \"m\"; compatible = \"urlboot,board-1\", \"urlboot,family\"; "
                         "cpus { compatible = \"not,this\"; }; };\n", &n);

        if (!b) {
                test_note("skipped: dtc is not installed (package device-tree-compiler)");
                return;
        }
        ASSERT_OK(fdt_root_compatible(b, n, &c));
        ASSERT_STREQ(c, "urlboot,board-1");
        ASSERT_EQ(fdt_root_compatible(b, n - 1, &c), -EBADMSG);      /* totalsize past what may be read */
        ASSERT_EQ(fdt_root_compatible(b, 39, &c), -EBADMSG);
        b[0] ^= 1;
        ASSERT_EQ(fdt_root_compatible(b, n, &c), -EBADMSG);
        free(b);
        b = dtb("/dts-v1/;\n/ { model = \"m\"; child { compatible = \"child,only\"; }; };\n", &n);
        ASSERT_TRUE(b);
        ASSERT_EQ(fdt_root_compatible(b, n, &c), -ENOENT);            /* only a child's: none */
        free(b);
}

TEST(dtbauto_choice) {
        size_t n1, n2;
        uint8_t *b1 = dtb("/dts-v1/;\n/ { compatible = \"urlboot,board-1\"; };\n", &n1);
        uint8_t *b2 = dtb("/dts-v1/;\n/ { compatible = \"linux,dummy-virt\", \"urlboot,board-1\"; };\n", &n2);
        static const Entry entries[] = { { HWIDS_DEVICETREE, CHID_A, "board 1", "urlboot,board-1" } };
        uint8_t hw[256];
        Chid chids[CHID_TYPES] = {};
        const char *by;

        if (!b1 || !b2) {
                test_note("skipped: dtc is not installed (package device-tree-compiler)");
                free(b1);
                return;
        }
        size_t hn = make_hwids(hw, sizeof hw, entries, 1);
        DtbautoCandidate c[] = { { "junk", 4 }, { b2, n2 }, { b1, n1 } };
        DtbautoMachine m = { .chids = chids };

        ASSERT_EQ(dtbauto_select(&m, hw, hn, c, 3, &by), -ENOENT);     /* no CHID matches */
        ASSERT_OK(chid_from_string(CHID_A, &chids[3]));
        ASSERT_EQ(dtbauto_select(&m, hw, hn, c, 3, &by), 2);           /* only the first string counts */
        ASSERT_STREQ(by, "urlboot,board-1");
        ASSERT_EQ(dtbauto_select(&m, NULL, 0, c, 3, &by), -ENOENT);    /* no .hwids */
        /* a firmware devicetree decides alone, .hwids unread */
        m.firmware_devicetree = true;
        m.firmware_compatible = "linux,dummy-virt";
        ASSERT_EQ(dtbauto_select(&m, hw, hn, c, 3, &by), 1);
        m.firmware_compatible = NULL;
        ASSERT_EQ(dtbauto_select(&m, hw, hn, c, 3, &by), -ENOENT);
        m.firmware_devicetree = false;
        hw[3] = 0x70;                                                   /* a malformed .hwids: none */
        ASSERT_EQ(dtbauto_select(&m, hw, hn, c, 3, &by), -EBADMSG);
        free(b1);
        free(b2);
}
