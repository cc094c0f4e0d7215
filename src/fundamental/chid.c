/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "assert-fundamental.h"
#include "chid.h"
#include "errno-fundamental.h"
#include "memory-fundamental.h"
#include "sha1.h"
#include "smbios.h"
#include "string-fundamental.h"
#include "utf16.h"

#define F(field) (UINT32_C(1) << (field))
#define M F(CHID_MANUFACTURER)
#define FAM F(CHID_FAMILY)
#define P F(CHID_PRODUCT_NAME)
#define S F(CHID_PRODUCT_SKU)
#define BB (F(CHID_BASEBOARD_MANUFACTURER) | F(CHID_BASEBOARD_PRODUCT))
#define BIOS (F(CHID_BIOS_VENDOR) | F(CHID_BIOS_VERSION) | F(CHID_BIOS_MAJOR) | F(CHID_BIOS_MINOR))
#define E F(CHID_EDID_PANEL)

/* Microsoft's "Specifying hardware IDs for a computer" (HardwareID-0 ... 14), then systemd's three. */
static const uint32_t type_fields[CHID_TYPES] = {
        [0] = M | FAM | P | S | BIOS,
        [1] = M | FAM | P | BIOS,
        [2] = M | P | BIOS,
        [3] = M | FAM | P | S | BB,
        [4] = M | FAM | P | S,
        [5] = M | FAM | P,
        [6] = M | S | BB,
        [7] = M | S,
        [8] = M | P | BB,
        [9] = M | P,
        [10] = M | FAM | BB,
        [11] = M | FAM,
        [12] = M | F(CHID_ENCLOSURE_TYPE),
        [13] = M | BB,
        [14] = M,
        [15] = M | FAM | P | E,
        [16] = M | FAM | E,
        [17] = M | S | E,
};

/* 70ffd812-4c7f-4c7d-0000-000000000000, big-endian as a name-based UUID's namespace is hashed (RFC 9562) */
static const uint8_t chid_namespace[16] = { 0x70, 0xff, 0xd8, 0x12, 0x4c, 0x7f, 0x4c, 0x7d };

uint32_t chid_type_fields(unsigned t) {
        return t < CHID_TYPES ? type_fields[t] : 0;
}

static int hash_field(Sha1 *c, const char *s) {
        void *u16 = NULL;
        size_t size;
        int r = utf8_to_utf16le(s, fstrlen(s), &u16, &size);

        if (r < 0)
                return r == -ENOMEM ? r : -ENOENT;
        sha1_update(c, u16, size - 2);         /* without the NUL */
        ffree(u16);
        return 0;
}

/* A UUID's bytes (big-endian fields) in EFI GUID order, Data1, Data2 and Data3 little-endian: GUID byte i
 * is UUID byte guid_order[i], and the other way round (the permutation is its own inverse). */
static const uint8_t guid_order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

static void uuid_to_guid(const uint8_t uuid[static 16], Chid *ret) {
        for (size_t i = 0; i < 16; i++)
                ret->bytes[i] = uuid[guid_order[i]];
}

int chid_compute(unsigned t, const char *const fields[static _CHID_FIELD_MAX], Chid *ret) {
        uint8_t digest[SHA1_DIGEST_SIZE];
        bool first = true;
        Sha1 c;

        fassert(fields);
        fassert(ret);

        *ret = (Chid) {};
        if (t >= CHID_TYPES)
                return -EINVAL;
        sha1_init(&c);
        sha1_update(&c, chid_namespace, sizeof chid_namespace);
        for (unsigned i = 0; i < _CHID_FIELD_MAX; i++) {
                if (!(type_fields[t] & F(i)))
                        continue;
                if (!fields[i])
                        return -ENOENT;
                if (!first)
                        sha1_update(&c, "&\0", 2);
                first = false;
                int r = hash_field(&c, fields[i]);
                if (r < 0)
                        return r;
        }
        sha1_finish(&c, digest);
        digest[6] = (digest[6] & 0x0f) | 0x50;          /* version 5 */
        digest[8] = (digest[8] & 0x3f) | 0x80;          /* the RFC's variant */
        uuid_to_guid(digest, ret);
        return 0;
}

bool chid_is_null(const Chid *c) {
        fassert(c);

        for (size_t i = 0; i < CHID_SIZE; i++)
                if (c->bytes[i])
                        return false;
        return true;
}

void chid_to_string(const Chid *c, char buf[static 37]) {
        static const char digits[] = "0123456789abcdef";
        size_t o = 0;

        fassert(c);
        fassert(buf);

        for (size_t i = 0; i < 16; i++) {
                if (i == 4 || i == 6 || i == 8 || i == 10)
                        buf[o++] = '-';
                uint8_t b = c->bytes[guid_order[i]];
                buf[o++] = digits[b >> 4];
                buf[o++] = digits[b & 15];
        }
        buf[o] = 0;
}

static int hex_value(char h) {
        if (h >= '0' && h <= '9')
                return h - '0';
        h = fascii_tolower(h);
        return h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
}

int chid_from_string(const char *s, Chid *ret) {
        uint8_t uuid[16];
        size_t o = 0;

        fassert(s);
        fassert(ret);

        for (size_t i = 0; i < 16; i++) {
                if (i == 4 || i == 6 || i == 8 || i == 10) {
                        if (s[o] != '-')
                                return -EINVAL;
                        o++;
                }
                int hi = hex_value(s[o]), lo = hi < 0 ? -1 : hex_value(s[o + 1]);
                if (hi < 0 || lo < 0)
                        return -EINVAL;
                uuid[i] = (uint8_t) (hi << 4 | lo);
                o += 2;
        }
        if (s[o] != 0)
                return -EINVAL;
        uuid_to_guid(uuid, ret);
        return 0;
}

/* Where the stub reads each field (DSP0134 7.2, 7.3): structure type, the length it needs, the field */
static const struct { uint8_t type, length_min, offset; } smbios_fields[] = {
        [CHID_MANUFACTURER] = { 1, 0x1b, 0x04 },
        [CHID_PRODUCT_NAME] = { 1, 0x1b, 0x05 },
        [CHID_PRODUCT_SKU] = { 1, 0x1b, 0x19 },
        [CHID_FAMILY] = { 1, 0x1b, 0x1a },
        [CHID_BASEBOARD_MANUFACTURER] = { 2, 0x08, 0x04 },
        [CHID_BASEBOARD_PRODUCT] = { 2, 0x08, 0x05 },
};

/* Leading spaces and zeros, trailing spaces off, as systemd-stub hashes SMBIOS strings */
static char *hashable_string(const char *s) {
        size_t n;

        if (!s)
                return fstrdup("");
        while (*s == ' ')
                s++;
        while (*s == '0')
                s++;
        for (n = fstrlen(s); n > 0 && s[n - 1] == ' '; n--)
                ;
        return fstrndup(s, n);
}

int chid_fields_from_smbios(const void *table, size_t size, char *ret[static _CHID_FIELD_MAX]) {
        fassert(table || size == 0);
        fassert(ret);

        for (size_t i = 0; i < _CHID_FIELD_MAX; i++)
                ret[i] = NULL;
        for (size_t i = 0; i < ELEMENTSOF(smbios_fields); i++) {
                const char *s = NULL;

                if (smbios_fields[i].type == 0)
                        continue;
                (void) smbios_structure_string(table, size, smbios_fields[i].type, smbios_fields[i].length_min,
                                               smbios_fields[i].offset, &s);
                ret[i] = hashable_string(s);
                if (!ret[i]) {
                        chid_fields_free(ret);
                        return -ENOMEM;
                }
        }
        return 0;
}

void chid_fields_free(char *fields[static _CHID_FIELD_MAX]) {
        fassert(fields);

        for (size_t i = 0; i < _CHID_FIELD_MAX; i++) {
                ffree(fields[i]);
                fields[i] = NULL;
        }
}

void chid_compute_all(const char *const fields[static _CHID_FIELD_MAX], Chid ret[static CHID_TYPES]) {
        fassert(fields);
        fassert(ret);

        for (unsigned t = 0; t < CHID_TYPES; t++)
                (void) chid_compute(t, fields, &ret[t]);
}
