/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for Boot#### load options with a Uri() path and the OVMF variable store writer. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "efivars.h"
#include "fileio.h"
#include "load-option.h"
#include "ovmf-vars.h"
#include "tests.h"

TEST(encode_byte_exact) {
        static const uint8_t want[] = {
                0x01, 0, 0, 0,                          /* LOAD_OPTION_ACTIVE */
                0x0f, 0,                                /* FilePathListLength: 11 + 4 */
                'N', 0, 'e', 0, 't', 0, 0, 0,           /* "Net" */
                0x03, 0x18, 0x0b, 0,                    /* Uri(), length 4 + 7 */
                'h', 't', 't', 'p', ':', '/', '/', /* the URL */
                0x7f, 0xff, 0x04, 0,                    /* End */
        };
        void *o;
        size_t n;
        char *url, *title;

        ASSERT_OK(load_option_make_uri("Net", "http://", &o, &n));
        ASSERT_EQ(n, sizeof want);
        ASSERT_TRUE(memcmp(o, want, n) == 0);
        ASSERT_OK(load_option_get_uri(o, n, &url, &title));
        ASSERT_STREQ(url, "http://");
        ASSERT_STREQ(title, "Net");
        free(url);
        free(title);
        ASSERT_EQ(load_option_get_uri(o, n - 5, &url, NULL), -EBADMSG);
        free(o);

        /* A disk entry (HD node) is not ours. */
        static const uint8_t disk[] = { 1, 0, 0, 0, 8, 0, 'X', 0, 0, 0, 4, 1, 4, 0, 0x7f, 0xff, 4, 0 };
        ASSERT_EQ(load_option_get_uri(disk, sizeof disk, &url, NULL), -ENOENT);
}

TEST(ovmf_vars_store) {
        const char *template = "/usr/share/OVMF/OVMF_VARS_4M.fd";
        uint8_t guid[16], value2[2] = { 0x80, 0 }, value3[2] = { 0x81, 0 };
        const uint8_t *d;
        char *buf;
        size_t size, n;
        void *o;
        int r = 0, count = 0;

        if (access(template, F_OK) < 0) {
                test_note("%s missing (package ovmf): skipped", template);
                return;
        }
        ASSERT_OK(efi_guid_from_string(EFI_VENDOR_GLOBAL_STR, guid));
        ASSERT_OK(read_full_file(template, 64 << 20, &buf, &size));
        ASSERT_EQ(ovmf_vars_get((uint8_t *) buf, size, "BootNext", guid, &d, &n), -ENOENT);

        ASSERT_OK(load_option_make_uri("uki", "http://10.0.2.2:8080/uki.efi", &o, &n));
        ASSERT_OK(ovmf_vars_set((uint8_t *) buf, size, "Boot0080", guid, EFI_VARIABLE_PERSISTENT_DEFAULT, o, n));
        ASSERT_OK(ovmf_vars_set((uint8_t *) buf, size, "BootNext", guid, EFI_VARIABLE_PERSISTENT_DEFAULT, value2, 2));
        ASSERT_OK(ovmf_vars_get((uint8_t *) buf, size, "Boot0080", guid, &d, &n));
        ASSERT_TRUE(memcmp(d, o, n) == 0);
        free(o);

        /* A new value replaces the old one, which is marked deleted. */
        ASSERT_OK(ovmf_vars_set((uint8_t *) buf, size, "BootNext", guid, EFI_VARIABLE_PERSISTENT_DEFAULT, value3, 2));
        ASSERT_OK(ovmf_vars_get((uint8_t *) buf, size, "BootNext", guid, &d, &n));
        ASSERT_EQ(n, 2);
        ASSERT_EQ(d[0], 0x81);
        /* and removal */
        ASSERT_OK(ovmf_vars_set((uint8_t *) buf, size, "BootNext", guid, 0, NULL, 0));
        ASSERT_EQ(ovmf_vars_get((uint8_t *) buf, size, "BootNext", guid, &d, &n), -ENOENT);

        /* The store fills up cleanly. */
        static const uint8_t filler[1000];
        while (r == 0 && count < 100000) {
                char name[32];
                snprintf(name, sizeof name, "Fill%05d", count++);
                r = ovmf_vars_set((uint8_t *) buf, size, name, guid, 7, filler, sizeof filler);
        }
        ASSERT_EQ(r, -ENOSPC);
        ASSERT_EQ(ovmf_vars_set((uint8_t *) "not a store", 11, "X", guid, 7, "x", 1), -EBADMSG);
        free(buf);
}
