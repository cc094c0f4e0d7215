/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for efivarfs access on a directory laid out like efivarfs ($URLBOOT_EFIVARFS). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "efivars.h"
#include "fileio.h"
#include "tests.h"

static void use_tmp_efivarfs(void) {
        setenv("URLBOOT_EFIVARFS", test_tmpdir(), 1);
}

TEST(string_roundtrip_and_layout) {
        char *s, path[512];
        char *raw;
        size_t size;
        uint32_t attr;

        use_tmp_efivarfs();
        ASSERT_OK(efi_set_variable_string("StubDeviceURL", EFI_VENDOR_LOADER_STR, EFI_VARIABLE_VOLATILE_DEFAULT,
                                          "http://10.0.2.2:8080/uki.efi"));

        /* The file is NAME-GUID: attributes (LE) then NUL-terminated UTF-16LE. */
        snprintf(path, sizeof path, "%s/StubDeviceURL-%s", test_tmpdir(), EFI_VENDOR_LOADER_STR);
        ASSERT_OK(read_full_file(path, 4096, &raw, &size));
        ASSERT_EQ(size, 4 + 2 * 29);
        ASSERT_TRUE(memcmp(raw, "\x06\x00\x00\x00h\x00t\x00", 8) == 0);
        ASSERT_TRUE(raw[size - 1] == 0 && raw[size - 2] == 0);
        free(raw);

        ASSERT_OK(efi_get_variable_string("StubDeviceURL", EFI_VENDOR_LOADER_STR, &s));
        ASSERT_STREQ(s, "http://10.0.2.2:8080/uki.efi");
        free(s);

        ASSERT_OK(efi_get_variable("StubDeviceURL", EFI_VENDOR_LOADER_STR, &attr, NULL, &size));
        ASSERT_EQ(attr, EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS);
        ASSERT_EQ(size, 58);
}

TEST(guid_case_is_normalized) {
        char *s;

        use_tmp_efivarfs();
        ASSERT_OK(efi_set_variable_string("X", "4A67B082-0A4C-41CF-B6C7-440B29BB8C4F", 7, "v"));
        ASSERT_OK(efi_get_variable_string("X", EFI_VENDOR_LOADER_STR, &s));
        ASSERT_STREQ(s, "v");
        free(s);
}

TEST(binary_and_delete) {
        const uint8_t features[8] = { 0xff, 0x80, 0x03, 0, 0, 0, 0, 0 };
        void *data;
        size_t size;

        use_tmp_efivarfs();
        ASSERT_OK(efi_set_variable("LoaderFeatures", EFI_VENDOR_LOADER_STR, EFI_VARIABLE_VOLATILE_DEFAULT, features, 8));
        ASSERT_OK(efi_get_variable("LoaderFeatures", EFI_VENDOR_LOADER_STR, NULL, &data, &size));
        ASSERT_EQ(size, 8);
        ASSERT_TRUE(memcmp(data, features, 8) == 0);
        free(data);

        ASSERT_OK(efi_set_variable("LoaderFeatures", EFI_VENDOR_LOADER_STR, 0, NULL, 0));
        ASSERT_EQ(efi_get_variable("LoaderFeatures", EFI_VENDOR_LOADER_STR, NULL, NULL, NULL), -ENOENT);
        /* Removing what is not there is fine. */
        ASSERT_OK(efi_set_variable_string("LoaderFeatures", EFI_VENDOR_LOADER_STR, 0, NULL));
}

/* docs/security.md L16: a protected (immutable) variable is protected again after a write. */
TEST(immutable_flag_restored) {
        char path[512];
        int fd, flags = 0;

        use_tmp_efivarfs();
        ASSERT_OK(efi_set_variable_string("LoaderEntryDefault", EFI_VENDOR_LOADER_STR, 7, "a"));
        snprintf(path, sizeof path, "%s/LoaderEntryDefault-%s", test_tmpdir(), EFI_VENDOR_LOADER_STR);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        ASSERT_TRUE(fd >= 0);
        if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0 || (flags |= FS_IMMUTABLE_FL, ioctl(fd, FS_IOC_SETFLAGS, &flags)) < 0) {
                test_note("the test directory's file system has no immutable flag: skipped");
                close(fd);
                return;
        }
        close(fd);
        ASSERT_OK(efi_set_variable_string("LoaderEntryDefault", EFI_VENDOR_LOADER_STR, 7, "b"));
        fd = open(path, O_RDONLY | O_CLOEXEC);
        ASSERT_TRUE(fd >= 0);
        ASSERT_OK(ioctl(fd, FS_IOC_GETFLAGS, &flags));
        ASSERT_TRUE(flags & FS_IMMUTABLE_FL);
        flags &= ~FS_IMMUTABLE_FL;
        ASSERT_OK(ioctl(fd, FS_IOC_SETFLAGS, &flags));
        close(fd);
        /* Removal clears it first. */
        ASSERT_OK(efi_set_variable_string("LoaderEntryDefault", EFI_VENDOR_LOADER_STR, 7, NULL));
}

TEST(bad_input) {
        char path[512];
        int fd;

        use_tmp_efivarfs();
        ASSERT_EQ(efi_get_variable("Missing", EFI_VENDOR_LOADER_STR, NULL, NULL, NULL), -ENOENT);
        ASSERT_EQ(efi_get_variable("../escape", EFI_VENDOR_LOADER_STR, NULL, NULL, NULL), -EINVAL);
        ASSERT_EQ(efi_get_variable("X", "not-a-guid", NULL, NULL, NULL), -EINVAL);
        ASSERT_EQ(efi_get_variable("X", "4a67b082-0a4c-41cf-b6c7-440b29bb8c4g", NULL, NULL, NULL), -EINVAL);

        /* A file shorter than the attribute prefix is malformed. */
        snprintf(path, sizeof path, "%s/Short-%s", test_tmpdir(), EFI_VENDOR_LOADER_STR);
        fd = open(path, O_WRONLY | O_CREAT, 0644);
        ASSERT_TRUE(fd >= 0);
        ASSERT_EQ(write(fd, "\x06\x00", 2), 2);
        close(fd);
        ASSERT_EQ(efi_get_variable("Short", EFI_VENDOR_LOADER_STR, NULL, NULL, NULL), -EBADMSG);

        /* Invalid UTF-8 cannot be stored as a string. */
        ASSERT_EQ(efi_set_variable_string("X", EFI_VENDOR_LOADER_STR, 7, "\xff"), -EILSEQ);
}

TEST(odd_length_string_variable) {
        char path[512], *s;
        int fd;

        /* Firmware writes garbage sometimes: an odd byte count and no NUL must still decode. */
        use_tmp_efivarfs();
        snprintf(path, sizeof path, "%s/Odd-%s", test_tmpdir(), EFI_VENDOR_LOADER_STR);
        fd = open(path, O_WRONLY | O_CREAT, 0644);
        ASSERT_TRUE(fd >= 0);
        ASSERT_EQ(write(fd, "\x06\x00\x00\x00h\x00i\x00!", 9), 9);
        close(fd);
        ASSERT_OK(efi_get_variable_string("Odd", EFI_VENDOR_LOADER_STR, &s));
        ASSERT_STREQ(s, "hi");
        free(s);
}

TEST(guid_roundtrip) {
        uint8_t g[16];
        char buf[37];

        ASSERT_OK(efi_guid_from_string(EFI_VENDOR_GLOBAL_STR, g));
        /* EFI_GLOBAL_VARIABLE's first field 0x8be4df61 is stored little-endian. */
        ASSERT_EQ(g[0], 0x61);
        ASSERT_EQ(g[3], 0x8b);
        ASSERT_EQ(g[8], 0xaa);
        ASSERT_STREQ(efi_guid_to_string(g, buf), EFI_VENDOR_GLOBAL_STR);
}
